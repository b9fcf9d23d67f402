import BothamWebSocketWire

/// Sessions, frames and feeding helpers shared by the WebSocket wire tests.
enum WebSocketTestSupport {
    /// The masking key of RFC 6455 §5.7's masked examples.
    static let rfcKey: UInt32 = 0x37FA_213D

    /// A client session masking with ``rfcKey``.
    static func client(
        limits: WebSocketLimits = .init(), deflate: PerMessageDeflate.Parameters? = nil
    ) -> WebSocketSession {
        WebSocketSession(role: .client, limits: limits, deflate: deflate, maskingKey: { rfcKey })
    }

    /// A server session.
    static func server(
        limits: WebSocketLimits = .init(), deflate: PerMessageDeflate.Parameters? = nil
    ) -> WebSocketSession {
        WebSocketSession(role: .server, limits: limits, deflate: deflate, maskingKey: { 0 })
    }

    /// `frame` as a client sends it (masked with `key`).
    static func masked(_ frame: WebSocketFrame, key: UInt32 = rfcKey) -> [UInt8] {
        frame.encoded(maskingKey: key)
    }

    /// `frame` as a server sends it (unmasked).
    static func unmasked(_ frame: WebSocketFrame) -> [UInt8] {
        frame.encoded(maskingKey: nil)
    }

    /// The events of `bytes` fed in pieces of `chunk` bytes.
    static func feed(_ session: inout WebSocketSession, _ bytes: [UInt8], chunk: Int) -> [WebSocketSession.Event] {
        var events: [WebSocketSession.Event] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, chunk))
            events += session.receive(Array(bytes[start..<end]))
            start = end
        }
        return events
    }

    /// The frames in a session's output.
    static func frames(_ output: [UInt8]) -> [WebSocketFrame] {
        WebSocketFrame.decodeAll(output).map(\.frame)
    }

    /// The close code of a close frame's payload.
    static func closeCode(_ frame: WebSocketFrame?) -> UInt16? {
        guard let frame, frame.opcode == .close, frame.payload.count >= 2 else { return nil }
        return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
    }
}
