import Testing

@testable import BothamWebSocketWire

/// permessage-deflate (RFC 7692): §7.2.3's example bytes, round trips between a client and a server session for
/// every combination of context takeover and window, and the bound that stops a compression bomb.
@Suite("WebSocket permessage-deflate: RFC 7692 examples and round trips", .timeLimit(.minutes(1)))
struct WebSocketDeflateTests {
    static let hello = Array("Hello".utf8)

    @Test("\"Hello\" compresses to RFC 7692 §7.2.3.1's bytes, and a client reads them back")
    func helloExample() throws {
        let expected: [UInt8] = [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
        var server = WebSocketTestSupport.server(deflate: .init())
        try server.send(.text("Hello"))
        #expect(server.takeOutput() == expected)
        var client = WebSocketTestSupport.client(deflate: .init())
        #expect(client.receive(expected) == [.message(.text("Hello"))])
    }

    @Test("with context takeover the second \"Hello\" is §7.2.3.2's five bytes; without it the first again")
    func contextTakeoverExample() throws {
        var sharing = WebSocketTestSupport.server(deflate: .init())
        try sharing.send(.text("Hello"))
        try sharing.send(.text("Hello"))
        let shared = sharing.takeOutput()
        #expect(Array(shared.suffix(7)) == [0xC1, 0x05, 0xF2, 0x00, 0x11, 0x00, 0x00])
        var client = WebSocketTestSupport.client(deflate: .init())
        #expect(client.receive(shared) == [.message(.text("Hello")), .message(.text("Hello"))])

        var resetting = WebSocketTestSupport.server(deflate: .init(serverNoContextTakeover: true))
        try resetting.send(.text("Hello"))
        try resetting.send(.text("Hello"))
        let once: [UInt8] = [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
        #expect(resetting.takeOutput() == once + once)
    }

    @Test("the other §7.2.3 forms are read: fragments of one compressed message, a stored block, a BFINAL block")
    func otherExamples() {
        var client = WebSocketTestSupport.client(deflate: .init())
        let fragmented: [UInt8] = [0x41, 0x03, 0xF2, 0x48, 0xCD, 0x80, 0x04, 0xC9, 0xC9, 0x07, 0x00]
        let stored: [UInt8] = [0xC1, 0x0B, 0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00]
        let final: [UInt8] = [0xC1, 0x08, 0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]
        let uncompressed: [UInt8] = [0x81, 0x05] + Self.hello
        #expect(
            WebSocketTestSupport.feed(&client, fragmented + stored + final + uncompressed, chunk: 1)
                == Array(repeating: .message(.text("Hello")), count: 4))
    }

    /// The parameter combinations the round trips run with.
    static let parameters: [PerMessageDeflate.Parameters] = [
        .init(),
        .init(serverNoContextTakeover: true, clientNoContextTakeover: true),
        .init(serverMaxWindowBits: 9, clientMaxWindowBits: 10),
        .init(serverMaxWindowBits: 8, clientMaxWindowBits: 8, clientNoContextTakeover: true),
        .init(serverMaxWindowBits: 12, clientMaxWindowBits: 15, serverNoContextTakeover: true),
    ]

    @Test("messages round-trip both ways, whole and fragmented, split at any byte", arguments: parameters)
    func roundTrips(parameters: PerMessageDeflate.Parameters) throws {
        var client = WebSocketTestSupport.client(deflate: parameters)
        var server = WebSocketTestSupport.server(deflate: parameters)
        var generator = TestGenerator(seed: 35)
        var messages: [WebSocketMessage] = [.text(""), .binary([]), .text("Hello"), .text("Hello")]
        for index in 0..<40 {
            let count = Int(generator.next() % 3000)
            let alphabet = index.isMultiple(of: 2) ? 4 : 256  // compressible and not
            let bytes = (0..<count).map { _ in UInt8(generator.next() % UInt64(alphabet)) }
            messages.append(
                index.isMultiple(of: 3) ? .text(String(repeating: "ü✓ ", count: count / 7)) : .binary(bytes))
        }
        for (index, message) in messages.enumerated() {
            try client.send(message, fragmentSize: index.isMultiple(of: 5) ? 17 : nil)
            try server.send(message, fragmentSize: index.isMultiple(of: 4) ? 100 : nil)
        }
        let atServer = WebSocketTestSupport.feed(&server, client.takeOutput(), chunk: 61)
        let atClient = WebSocketTestSupport.feed(&client, server.takeOutput(), chunk: 1)
        #expect(atServer == messages.map { .message($0) })
        #expect(atClient == messages.map { .message($0) })
    }

    @Test("RSV1 is set on the first frame of a compressed message only")
    func rsv1OnFirstFrameOnly() throws {
        var client = WebSocketTestSupport.client(deflate: .init())
        try client.send(.binary([UInt8](repeating: 1, count: 100)), fragmentSize: 2)
        let frames = WebSocketTestSupport.frames(client.takeOutput())
        #expect(frames.count > 1)
        #expect(frames.first?.rsv1 == true)
        #expect(frames.dropFirst().allSatisfy { !$0.rsv1 && $0.opcode == .continuation })
    }

    @Test("a compressed message inflating past maxMessageSize fails with 1009 before it is all inflated")
    func compressionBomb() throws {
        // 8 MiB of zeros compress to about 8 KiB.
        var server = WebSocketTestSupport.server(deflate: .init())
        try server.send(.binary([UInt8](repeating: 0, count: 8 << 20)))
        let bomb = server.takeOutput()
        #expect(bomb.count < 64 * 1024)
        var client = WebSocketTestSupport.client(
            limits: WebSocketLimits(maxFrameSize: 1 << 20, maxMessageSize: 1 << 20), deflate: .init())
        let events = client.receive(bomb)
        guard case .failed(1009, _)? = events.first else {
            Issue.record("expected 1009, got \(events)")
            return
        }
        // At the limit exactly, the same kind of message is accepted.
        var exact = WebSocketTestSupport.server(deflate: .init())
        try exact.send(.binary([UInt8](repeating: 0, count: 1 << 20)))
        var reader = WebSocketTestSupport.client(
            limits: WebSocketLimits(maxFrameSize: 1 << 20, maxMessageSize: 1 << 20), deflate: .init())
        #expect(reader.receive(exact.takeOutput()) == [.message(.binary([UInt8](repeating: 0, count: 1 << 20)))])
    }

    @Test("compressed text that inflates to invalid UTF-8 in its first fragment fails with 1007 before the last")
    func invalidUTF8AfterInflating() {
        var client = WebSocketTestSupport.client(deflate: .init())
        // A stored block holding "A" and 0xFF, as the first fragment of a compressed text message.
        let first = WebSocketFrame(
            fin: false, rsv1: true, opcode: .text, payload: [0x00, 0x02, 0x00, 0xFD, 0xFF, 0x41, 0xFF])
        let events = client.receive(first.encoded(maskingKey: nil))
        guard case .failed(1007, _)? = events.first else {
            Issue.record("expected 1007, got \(events)")
            return
        }
    }

    @Test("uncompressed messages (RSV1 clear) are read as they are when deflate is negotiated")
    func uncompressedWithDeflate() {
        var server = WebSocketTestSupport.server(deflate: .init())
        let bytes = WebSocketFrame(opcode: .binary, payload: [1, 2, 3]).encoded(maskingKey: 5)
        #expect(server.receive(bytes) == [.message(.binary([1, 2, 3]))])
    }
}

/// SplitMix64, for seeded inputs.
struct TestGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
