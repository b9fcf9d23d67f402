/// Why a session refused to queue a frame.
package struct WebSocketSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of refusal.
    package enum Kind: Sendable, Equatable {
        /// A close was already sent or received (or the connection failed): nothing more may be sent.
        case closing
        /// A control frame's payload over 125 bytes, or a close reason over 123.
        case payloadTooLong
        /// A close code that may not be sent (see ``WebSocketCloseCode/isValidOnWire(_:)``), or a reason
        /// without a code.
        case invalidCloseCode
        /// zlib failed to compress the message (out of memory).
        case compressionFailed
    }

    /// The kind.
    package var kind: Kind
    /// A human-readable reason.
    package var reason: String

    /// An error of `kind` for `reason`.
    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
