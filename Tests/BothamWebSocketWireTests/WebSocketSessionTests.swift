import Testing

@testable import BothamWebSocketWire

/// The session's reading and writing: any split of the input reads the same, control frames interleave with
/// fragments, text fails at its first invalid byte, and the sizes are bounded.
@Suite("WebSocket session: parsing, fragments and limits", .timeLimit(.minutes(1)))
struct WebSocketSessionTests {
    /// A stream from a server with every kind of frame: fragments with pings and pongs between them, empty
    /// frames, 16- and 64-bit lengths, multi-byte text split inside characters.
    static func serverStream() -> (bytes: [UInt8], events: [WebSocketSession.Event]) {
        let text = "héllo wörld — ✓ 𝄞"
        let utf8 = Array(text.utf8)
        let big = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var bytes: [UInt8] = []
        func add(_ frame: WebSocketFrame) { bytes += frame.encoded(maskingKey: nil) }
        add(WebSocketFrame(fin: false, opcode: .text, payload: Array(utf8[0..<2])))  // "h" and the first byte of "é"
        add(WebSocketFrame(opcode: .ping, payload: [1, 2, 3]))
        add(WebSocketFrame(fin: false, opcode: .continuation, payload: []))
        add(WebSocketFrame(opcode: .pong, payload: []))
        add(WebSocketFrame(fin: true, opcode: .continuation, payload: Array(utf8[2...])))
        add(WebSocketFrame(opcode: .binary, payload: []))
        add(WebSocketFrame(opcode: .text, payload: []))
        add(WebSocketFrame(fin: false, opcode: .binary, payload: Array(big[0..<300])))
        add(WebSocketFrame(fin: true, opcode: .continuation, payload: Array(big[300...])))
        let events: [WebSocketSession.Event] = [
            .ping([1, 2, 3]), .pong([]), .message(.text(text)), .message(.binary([])), .message(.text("")),
            .message(.binary(big)),
        ]
        return (bytes, events)
    }

    @Test("a stream read whole, in chunks of every size up to 17, and one byte at a time gives the same events")
    func anySplitReadsTheSame() {
        let (bytes, expected) = Self.serverStream()
        var whole = WebSocketTestSupport.client()
        #expect(whole.receive(bytes) == expected)
        for chunk in [1, 2, 3, 5, 7, 11, 13, 17, 1000] {
            var client = WebSocketTestSupport.client()
            #expect(WebSocketTestSupport.feed(&client, bytes, chunk: chunk) == expected, "chunk \(chunk)")
            let pongs = WebSocketTestSupport.frames(client.takeOutput())
            #expect(pongs == [WebSocketFrame(opcode: .pong, payload: [1, 2, 3])])
        }
    }

    @Test("a masked stream from a client reads the same at a server, one byte at a time")
    func serverReadsMaskedBytewise() throws {
        var client = WebSocketTestSupport.client()
        try client.send(.text("a ✓ b"), fragmentSize: 2)
        try client.sendPing([9])
        try client.send(.binary([UInt8](repeating: 7, count: 1000)), fragmentSize: 333)
        var server = WebSocketTestSupport.server()
        let events = WebSocketTestSupport.feed(&server, client.takeOutput(), chunk: 1)
        #expect(
            events == [.message(.text("a ✓ b")), .ping([9]), .message(.binary([UInt8](repeating: 7, count: 1000)))])
    }

    @Test("every frame a client writes is masked, each with a key from maskingKey(); a server's never are")
    func maskingPerRole() throws {
        var keys: [UInt32] = [0x1111_1111, 0x2222_2222, 0x3333_3333]
        var client = WebSocketSession(role: .client, maskingKey: { keys.removeFirst() })
        try client.send(.text("abcdef"), fragmentSize: 3)
        try client.sendPing([])
        let decoded = WebSocketFrame.decodeAll(client.takeOutput())
        #expect(decoded.map(\.maskingKey) == [0x1111_1111, 0x2222_2222, 0x3333_3333])
        var server = WebSocketTestSupport.server()
        try server.send(.text("abcdef"), fragmentSize: 3)
        #expect(WebSocketFrame.decodeAll(server.takeOutput()).allSatisfy { $0.maskingKey == nil })
    }

    @Test("an invalid byte in a text message's first fragment fails with 1007 before its last fragment arrives")
    func utf8FailsFastAcrossFragments() {
        var client = WebSocketTestSupport.client()
        // Valid first fragment, then one whose first byte breaks the sequence (F4 90: above U+10FFFF).
        #expect(
            client.receive(WebSocketFrame(fin: false, opcode: .text, payload: [0x41, 0xF4]).encoded(maskingKey: nil))
                == [])
        let events = client.receive(
            WebSocketFrame(fin: false, opcode: .continuation, payload: [0x90, 0x80, 0x80]).encoded(maskingKey: nil))
        #expect(events.count == 1)
        guard case .failed(1007, _)? = events.first else {
            Issue.record("expected 1007, got \(events)")
            return
        }
    }

    @Test("an invalid byte inside one frame fails at that byte, before the rest of the frame's payload arrives")
    func utf8FailsFastInsideAFrame() {
        var client = WebSocketTestSupport.client()
        let frame = WebSocketFrame(opcode: .text, payload: Array("abc".utf8) + [0xFF] + Array("defgh".utf8))
        let bytes = frame.encoded(maskingKey: nil)
        #expect(client.receive(Array(bytes[0..<5])) == [])  // header and "abc"
        let events = client.receive([bytes[5]])  // 0xFF
        guard case .failed(1007, _)? = events.first else {
            Issue.record("expected 1007 at the invalid byte, got \(events)")
            return
        }
    }

    @Test("a character split across fragments is valid; a message ending inside one is 1007")
    func utf8AcrossFragmentBoundaries() {
        let clef = Array("𝄞".utf8)  // four bytes
        var client = WebSocketTestSupport.client()
        var bytes: [UInt8] = []
        for (index, byte) in clef.enumerated() {
            bytes += WebSocketFrame(fin: index == 3, opcode: index == 0 ? .text : .continuation, payload: [byte])
                .encoded(maskingKey: nil)
        }
        #expect(client.receive(bytes) == [.message(.text("𝄞"))])
        var truncated = WebSocketTestSupport.client()
        let events = truncated.receive(
            WebSocketFrame(opcode: .text, payload: Array(clef[0..<3])).encoded(maskingKey: nil))
        guard case .failed(1007, _)? = events.first else {
            Issue.record("expected 1007, got \(events)")
            return
        }
    }

    @Test("a frame over maxFrameSize fails with 1009 at its header, before any payload")
    func frameLimitAtHeader() {
        var client = WebSocketTestSupport.client(limits: WebSocketLimits(maxFrameSize: 1000, maxMessageSize: 10_000))
        let events = client.receive([0x82, 0x7E, 0x03, 0xE9])  // 1001 bytes announced
        guard case .failed(1009, _)? = events.first else {
            Issue.record("expected 1009, got \(events)")
            return
        }
    }

    @Test("frames and messages exactly at the limits are accepted")
    func exactlyAtLimits() {
        var client = WebSocketTestSupport.client(limits: WebSocketLimits(maxFrameSize: 4, maxMessageSize: 8))
        var bytes = WebSocketFrame(fin: false, opcode: .binary, payload: [1, 2, 3, 4]).encoded(maskingKey: nil)
        bytes += WebSocketFrame(opcode: .continuation, payload: [5, 6, 7, 8]).encoded(maskingKey: nil)
        #expect(client.receive(bytes) == [.message(.binary([1, 2, 3, 4, 5, 6, 7, 8]))])
        let more =
            WebSocketFrame(fin: false, opcode: .binary, payload: [1, 2, 3, 4]).encoded(maskingKey: nil)
            + WebSocketFrame(fin: false, opcode: .continuation, payload: [5, 6, 7, 8]).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .continuation, payload: [9]).encoded(maskingKey: nil)
        let events = client.receive(more)
        guard case .failed(1009, _)? = events.last else {
            Issue.record("expected 1009, got \(events)")
            return
        }
    }

    @Test("sending refuses control payloads over 125 bytes and close reasons over 123, and bad close codes")
    func sendingChecks() throws {
        var client = WebSocketTestSupport.client()
        #expect(throws: WebSocketSessionError.self) { try client.sendPing([UInt8](repeating: 0, count: 126)) }
        #expect(throws: WebSocketSessionError.self) { try client.sendPong([UInt8](repeating: 0, count: 126)) }
        #expect(throws: WebSocketSessionError.self) {
            try client.close(code: 1000, reason: String(repeating: "a", count: 124))
        }
        #expect(throws: WebSocketSessionError.self) { try client.close(code: 1005, reason: "") }
        #expect(throws: WebSocketSessionError.self) { try client.close(code: nil, reason: "why") }
        try client.sendPing([UInt8](repeating: 0, count: 125))
        try client.close(code: 1000, reason: String(repeating: "a", count: 123))
        #expect(client.state == .closeSent)
    }
}
