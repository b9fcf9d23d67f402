/// A whole WebSocket message: its fragments joined and, when compressed, inflated.
package enum WebSocketMessage: Sendable, Equatable {
    /// A text message (valid UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
