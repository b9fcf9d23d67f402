/// Why a WebSocket opening handshake is refused: a human-readable reason that names the header at fault.
package struct WebSocketHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the header (e.g. "Sec-WebSocket-Accept does not match the key").
    package var reason: String

    /// An error for `reason`.
    package init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
