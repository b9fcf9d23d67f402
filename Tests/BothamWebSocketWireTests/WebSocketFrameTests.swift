import Testing

@testable import BothamWebSocketWire

/// RFC 6455 §5.7's example frames, written and read back: unmasked and masked text, a fragmented message, a ping
/// and a masked pong, and the 16-bit and 64-bit length forms (256 bytes, 64 KiB).
@Suite("WebSocket frames: RFC 6455 §5.7 examples", .timeLimit(.minutes(1)))
struct WebSocketFrameTests {
    static let hello = Array("Hello".utf8)

    @Test("a single-frame unmasked text message is the RFC's bytes and a client reads it as \"Hello\"")
    func unmaskedText() {
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskingKey: nil) == bytes)
        var client = WebSocketTestSupport.client()
        #expect(client.receive(bytes) == [.message(.text("Hello"))])
    }

    @Test("a single-frame masked text message is the RFC's bytes and a server reads it as \"Hello\"")
    func maskedText() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskingKey: 0x37FA_213D) == bytes)
        var server = WebSocketTestSupport.server()
        #expect(server.receive(bytes) == [.message(.text("Hello"))])
        var client = WebSocketTestSupport.client()
        try? client.send(.text("Hello"))
        #expect(client.takeOutput() == bytes)
    }

    @Test("a fragmented unmasked text message (\"Hel\" then \"lo\") is read as one message")
    func fragmented() {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        var client = WebSocketTestSupport.client()
        #expect(client.receive(Array(bytes[0..<5])) == [])
        #expect(client.receive(Array(bytes[5...])) == [.message(.text("Hello"))])
        var server = WebSocketTestSupport.server()
        try? server.send(.text("Hello"), fragmentSize: 3)
        #expect(server.takeOutput() == bytes)
    }

    @Test("an unmasked ping is answered with a pong of the same payload; a masked pong is read")
    func pingAndPong() {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let maskedPong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        var client = WebSocketTestSupport.client()
        #expect(client.receive(ping) == [.ping(Self.hello)])
        #expect(client.takeOutput() == maskedPong)
        var server = WebSocketTestSupport.server()
        #expect(server.receive(maskedPong) == [.pong(Self.hello)])
        #expect(!server.hasOutput)
    }

    @Test("256 bytes use the 16-bit length (126, 0x0100) and 64 KiB the 64-bit one (127, 0x10000)")
    func extendedLengths() {
        let small = [UInt8](repeating: 0xAB, count: 256)
        let smallBytes = WebSocketFrame(opcode: .binary, payload: small).encoded(maskingKey: nil)
        #expect(Array(smallBytes.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(smallBytes.count == 4 + 256)
        let large = (0..<65_536).map { UInt8(truncatingIfNeeded: $0) }
        let largeBytes = WebSocketFrame(opcode: .binary, payload: large).encoded(maskingKey: nil)
        #expect(Array(largeBytes.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
        var client = WebSocketTestSupport.client()
        #expect(client.receive(smallBytes + largeBytes) == [.message(.binary(small)), .message(.binary(large))])
    }

    @Test("a non-minimal length encoding is accepted (5 bytes announced in the 64-bit form)")
    func nonMinimalLength() {
        var client = WebSocketTestSupport.client()
        let bytes: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0, 5] + Self.hello
        #expect(client.receive(bytes) == [.message(.binary(Self.hello))])
    }

    @Test("decode reads back each frame with its masking key and byte count, and nil for a partial frame")
    func decodeReadsBack() {
        let frame = WebSocketFrame(fin: false, rsv1: true, opcode: .binary, payload: [1, 2, 3])
        let bytes = frame.encoded(maskingKey: 0x0102_0304)
        let decoded = WebSocketFrame.decode(bytes)
        #expect(decoded?.frame == frame)
        #expect(decoded?.maskingKey == 0x0102_0304)
        #expect(decoded?.byteCount == bytes.count)
        #expect(WebSocketFrame.decode(bytes.dropLast()) == nil)
    }
}
