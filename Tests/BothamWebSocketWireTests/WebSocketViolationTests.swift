import Testing

@testable import BothamWebSocketWire

/// Every protocol violation of RFC 6455 §5 and §7 and RFC 7692 fails the connection with its close code: the
/// session reports `.failed`, queues a close frame carrying the code, moves to `closed` and ignores what follows.
@Suite("WebSocket session: each violation closes with its code", .timeLimit(.minutes(1)))
struct WebSocketViolationTests {
    /// One violating byte stream and the code it must close with.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var role: WebSocketSession.Role
        var bytes: [UInt8]
        var code: UInt16
        var deflate = false
        var limits = WebSocketLimits()
        var testDescription: String { name }
    }

    static func server(_ frame: WebSocketFrame) -> [UInt8] { frame.encoded(maskingKey: nil) }
    static func client(_ frame: WebSocketFrame) -> [UInt8] { frame.encoded(maskingKey: 0x1234_5678) }

    static let cases: [Case] = [
        Case(name: "unknown data opcode 3", role: .client, bytes: [0x83, 0x00], code: 1002),
        Case(name: "unknown control opcode 11", role: .client, bytes: [0x8B, 0x00], code: 1002),
        Case(name: "RSV2 set", role: .client, bytes: [0xA1, 0x00], code: 1002),
        Case(name: "RSV3 set", role: .client, bytes: [0x91, 0x00], code: 1002),
        Case(name: "RSV1 set without deflate", role: .client, bytes: [0xC1, 0x00], code: 1002),
        Case(name: "RSV1 on a ping with deflate", role: .client, bytes: [0xC9, 0x00], code: 1002, deflate: true),
        Case(
            name: "RSV1 on a continuation with deflate", role: .client,
            bytes: [0x41, 0x01, 0x00, 0xC0, 0x00], code: 1002, deflate: true),
        Case(name: "a masked frame from the server", role: .client, bytes: [0x81, 0x80, 1, 2, 3, 4], code: 1002),
        Case(name: "an unmasked frame from the client", role: .server, bytes: [0x81, 0x00], code: 1002),
        Case(name: "a fragmented ping", role: .client, bytes: [0x09, 0x00], code: 1002),
        Case(
            name: "a ping of 126 bytes", role: .client,
            bytes: [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), code: 1002),
        Case(name: "a continuation with no message", role: .client, bytes: [0x80, 0x00], code: 1002),
        Case(
            name: "a text frame inside a fragmented message", role: .client,
            bytes: [0x01, 0x01, 0x41, 0x81, 0x01, 0x42], code: 1002),
        Case(
            name: "a 64-bit length with its top bit set", role: .client,
            bytes: [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], code: 1002),
        Case(
            name: "a frame over maxFrameSize", role: .client, bytes: [0x82, 0x0B] + [UInt8](repeating: 0, count: 11),
            code: 1009, limits: WebSocketLimits(maxFrameSize: 10, maxMessageSize: 100)),
        Case(
            name: "fragments over maxMessageSize", role: .client,
            bytes: [0x02, 0x06, 1, 2, 3, 4, 5, 6, 0x80, 0x06, 1, 2, 3, 4, 5, 6], code: 1009,
            limits: WebSocketLimits(maxFrameSize: 100, maxMessageSize: 10)),
        Case(name: "a close with a 1-byte payload", role: .client, bytes: [0x88, 0x01, 0x03], code: 1002),
        Case(name: "close code 1005 on the wire", role: .client, bytes: [0x88, 0x02, 0x03, 0xED], code: 1002),
        Case(name: "close code 999", role: .client, bytes: [0x88, 0x02, 0x03, 0xE7], code: 1002),
        Case(name: "close code 1016", role: .client, bytes: [0x88, 0x02, 0x03, 0xF8], code: 1002),
        Case(name: "close code 5000", role: .client, bytes: [0x88, 0x02, 0x13, 0x88], code: 1002),
        Case(
            name: "a close reason that is not UTF-8", role: .client, bytes: [0x88, 0x04, 0x03, 0xE8, 0xC3, 0x28],
            code: 1007),
        Case(name: "a text frame that is not UTF-8", role: .client, bytes: [0x81, 0x01, 0xFF], code: 1007),
        Case(name: "a text message ending inside a character", role: .client, bytes: [0x81, 0x01, 0xC3], code: 1007),
        Case(name: "a surrogate in text", role: .client, bytes: [0x81, 0x03, 0xED, 0xA0, 0x80], code: 1007),
        Case(name: "an overlong encoding in text", role: .client, bytes: [0x81, 0x02, 0xC0, 0xAF], code: 1007),
        Case(
            name: "a code point above U+10FFFF", role: .client, bytes: [0x81, 0x04, 0xF4, 0x90, 0x80, 0x80],
            code: 1007),
        Case(
            name: "compressed data that does not inflate", role: .client, bytes: [0xC2, 0x02, 0xFF, 0xFF],
            code: 1007, deflate: true),
        Case(
            name: "compressed text inflating to invalid UTF-8", role: .client,
            bytes: [0xC1, 0x06, 0x00, 0x01, 0x00, 0xFE, 0xFF, 0xFF], code: 1007, deflate: true),
        Case(
            name: "a masked data frame from the client breaking the message order", role: .server,
            bytes: client(WebSocketFrame(opcode: .continuation, payload: [1])), code: 1002),
    ]

    @Test("the violation fails the session with its close code queued", arguments: cases)
    func violation(_ testCase: Case) {
        var session = WebSocketSession(
            role: testCase.role, limits: testCase.limits,
            deflate: testCase.deflate ? PerMessageDeflate.Parameters() : nil, maskingKey: { 0x0A0B_0C0D })
        let events = session.receive(testCase.bytes)
        guard case .failed(let code, let reason)? = events.last else {
            Issue.record("no failure: \(events)")
            return
        }
        #expect(code == testCase.code, "\(reason)")
        #expect(!reason.isEmpty)
        #expect(session.state == .closed)
        let frames = WebSocketTestSupport.frames(session.takeOutput())
        #expect(frames.count == 1)
        #expect(WebSocketTestSupport.closeCode(frames.first) == testCase.code)
        // Nothing after a failure is read.
        #expect(session.receive(Self.server(WebSocketFrame(opcode: .text, payload: [0x41]))) == [])
        #expect(!session.hasOutput)
    }

    @Test("the same violation fed one byte at a time fails with the same code", arguments: cases)
    func violationBytewise(_ testCase: Case) {
        var session = WebSocketSession(
            role: testCase.role, limits: testCase.limits,
            deflate: testCase.deflate ? PerMessageDeflate.Parameters() : nil, maskingKey: { 0x0A0B_0C0D })
        let events = WebSocketTestSupport.feed(&session, testCase.bytes, chunk: 1)
        guard case .failed(let code, _)? = events.last else {
            Issue.record("no failure: \(events)")
            return
        }
        #expect(code == testCase.code)
    }

    @Test("a violation after our close was sent fails without queueing a second close")
    func violationAfterCloseSent() throws {
        var client = WebSocketTestSupport.client()
        try client.close(code: 1000, reason: "")
        _ = client.takeOutput()
        #expect(client.receive([0x83, 0x00]) == [.failed(code: 1002, reason: "unknown opcode 3")])
        #expect(!client.hasOutput)
        #expect(client.state == .closed)
    }

    @Test("a header is refused at its second byte, before the rest of the frame arrives")
    func failsAtSecondHeaderByte() {
        var client = WebSocketTestSupport.client()
        #expect(client.receive([0x81]) == [])
        let events = client.receive([0x80])
        #expect(events.count == 1)
        #expect(client.state == .closed)
    }
}
