/// Why a WebSocket opening handshake is refused: a human-readable reason that names the header at fault.
public struct WebSocketHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the header (e.g. "Sec-WebSocket-Accept does not match the key").
    public var reason: String

    /// An error for `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
