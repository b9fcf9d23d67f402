import Testing

@testable import BothamWebSocketWire

/// The close handshake (RFC 6455 §5.5.1, §7): whichever side closes first, both end `closed` with the other's
/// code; nothing is sent after a close; data after the handshake is ignored.
@Suite("WebSocket session: the close handshake", .timeLimit(.minutes(1)))
struct WebSocketCloseTests {
    @Test("client closes first: the server echoes the code and reports it; the client then reports the echo")
    func clientClosesFirst() throws {
        var client = WebSocketTestSupport.client()
        var server = WebSocketTestSupport.server()
        try client.close(code: 1001, reason: "bye")
        #expect(client.state == .closeSent)
        #expect(server.receive(client.takeOutput()) == [.closed(code: 1001, reason: "bye")])
        #expect(server.state == .closeReceived)
        let echo = server.takeOutput()
        #expect(server.state == .closed)
        #expect(WebSocketTestSupport.frames(echo) == [WebSocketFrame(opcode: .close, payload: [0x03, 0xE9])])
        #expect(client.receive(echo) == [.closed(code: 1001, reason: "")])
        #expect(client.state == .closed)
        #expect(!client.hasOutput)
    }

    @Test("server closes first: the client's echo is masked and the server completes")
    func serverClosesFirst() throws {
        var client = WebSocketTestSupport.client()
        var server = WebSocketTestSupport.server()
        try server.close(code: 4000, reason: "done ✓")
        #expect(client.receive(server.takeOutput()) == [.closed(code: 4000, reason: "done ✓")])
        let echo = WebSocketFrame.decodeAll(client.takeOutput())
        #expect(echo.count == 1)
        #expect(echo.first?.maskingKey != nil)
        #expect(
            server.receive(echo.flatMap { $0.frame.encoded(maskingKey: $0.maskingKey) }) == [
                .closed(code: 4000, reason: "")
            ])
        #expect(server.state == .closed)
    }

    @Test("a close without a code is answered without one and reported as nil (1005)")
    func closeWithoutCode() throws {
        var client = WebSocketTestSupport.client()
        #expect(client.receive([0x88, 0x00]) == [.closed(code: nil, reason: "")])
        #expect(WebSocketTestSupport.frames(client.takeOutput()) == [WebSocketFrame(opcode: .close, payload: [])])
    }

    @Test("after a close was sent: messages still arrive, pings are not answered, nothing more may be sent")
    func afterCloseSent() throws {
        var client = WebSocketTestSupport.client()
        try client.close(code: 1000, reason: "")
        _ = client.takeOutput()
        let bytes =
            WebSocketFrame(opcode: .text, payload: Array("late".utf8)).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .ping, payload: [1]).encoded(maskingKey: nil)
        #expect(client.receive(bytes) == [.message(.text("late")), .ping([1])])
        #expect(!client.hasOutput)
        #expect(throws: WebSocketSessionError(.closing, "the WebSocket is closing: nothing more may be sent")) {
            try client.send(.text("x"))
        }
        #expect(throws: WebSocketSessionError.self) { try client.sendPing([]) }
        #expect(throws: WebSocketSessionError.self) { try client.close(code: 1000, reason: "") }
    }

    @Test("bytes after the peer's close are ignored, and sending after it throws")
    func afterCloseReceived() throws {
        var client = WebSocketTestSupport.client()
        let bytes =
            WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]).encoded(maskingKey: nil)
            + WebSocketFrame(opcode: .text, payload: Array("ignored".utf8)).encoded(maskingKey: nil) + [0xFF, 0xFF]
        #expect(client.receive(bytes) == [.closed(code: 1000, reason: "")])
        #expect(client.receive(WebSocketFrame(opcode: .ping, payload: []).encoded(maskingKey: nil)) == [])
        #expect(throws: WebSocketSessionError.self) { try client.send(.binary([1])) }
        #expect(WebSocketTestSupport.frames(client.takeOutput()).count == 1)
    }

    @Test(
        "every close code valid on the wire is accepted and every other one refused",
        arguments: [
            (UInt16(1000), true), (1001, true), (1002, true), (1003, true), (1004, false), (1005, false), (1006, false),
            (1007, true), (1011, true), (1014, true), (1015, false), (1016, false), (2999, false), (3000, true),
            (4999, true), (5000, false), (0, false), (999, false),
        ])
    func closeCodes(code: UInt16, valid: Bool) {
        #expect(WebSocketCloseCode.isValidOnWire(code) == valid)
        var client = WebSocketTestSupport.client()
        let events = client.receive([0x88, 0x02, UInt8(code >> 8), UInt8(code & 0xFF)])
        #expect(
            events == [
                valid
                    ? .closed(code: code, reason: "")
                    : .failed(code: 1002, reason: "close code \(code) is not valid on the wire")
            ])
    }
}
