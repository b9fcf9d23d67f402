/// A WebSocket frame's opcode (RFC 6455 §5.2): the six the protocol defines; any other value on the wire is a
/// protocol violation.
package enum WebSocketOpcode: UInt8, Sendable {
    /// A later fragment of a message.
    case continuation = 0
    /// The first frame of a text message.
    case text = 1
    /// The first frame of a binary message.
    case binary = 2
    /// The close handshake.
    case close = 8
    /// A ping, answered by a pong with the same payload.
    case ping = 9
    /// A pong.
    case pong = 10

    /// Whether this is a control frame's opcode (close, ping or pong): at most 125 bytes, never fragmented.
    package var isControl: Bool { rawValue & 0x08 != 0 }
}
