/// Why a session refused to queue a frame.
public struct WebSocketSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: Sendable, Equatable {
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
    public var kind: Kind
    /// A human-readable reason.
    public var reason: String

    /// An error of `kind` for `reason`.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
