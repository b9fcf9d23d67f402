import BothamTestSupport
import Testing

@testable import BothamHTTP2Wire

/// Every frame type written by our encoder and read back by our decoder is the same frame, for seeded random
/// frames of every shape; field blocks of any size go out split at the peer's SETTINGS_MAX_FRAME_SIZE and come
/// back whole.
@Suite("HTTP/2 frames: round trips of every type", .timeLimit(.minutes(1)))
struct HTTP2FrameRoundTripTests {
    /// A random frame of `type` that our decoder accepts (push accepted), field blocks ending in their frame.
    static func randomFrame(_ type: Int, using random: inout SplitMix64) -> HTTP2Frame {
        func bytes(_ most: Int) -> [UInt8] {
            (0..<Int.random(in: 0...most, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let stream = HTTP2StreamID(UInt32.random(in: 1...0x7FFF_FFFF, using: &random))
        let padding: UInt8? = Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : nil
        let priority: HTTP2Priority? =
            Bool.random(using: &random)
            ? HTTP2Priority(
                exclusive: Bool.random(using: &random), dependency: HTTP2StreamID(stream.rawValue ^ 1),
                weight: UInt8.random(in: 0...255, using: &random)) : nil
        let settings = (0..<Int.random(in: 0...8, using: &random)).map { _ in
            HTTP2Setting(
                HTTP2SettingsParameter(rawValue: [1, 3, 6, 7, 0x10, 0xFFFF].randomElement(using: &random) ?? 1),
                UInt32.random(in: 0...UInt32.max, using: &random))
        }
        let payload: HTTP2Frame.Payload
        var streamID = stream
        switch type {
        case 0: payload = .data(.init(bytes: bytes(600), endStream: Bool.random(using: &random), padding: padding))
        case 1:
            payload = .headers(
                .init(
                    fieldBlock: bytes(600), endStream: Bool.random(using: &random), priority: priority,
                    padding: padding))
        case 2: payload = .priority(priority ?? HTTP2Priority(dependency: 0, weight: 0))
        case 3: payload = .rstStream(HTTP2ErrorCode(rawValue: UInt32.random(in: 0...20, using: &random)))
        case 4:
            streamID = .connection
            payload = .settings(Bool.random(using: &random) ? .ack : .parameters(settings))
        case 5:
            payload = .pushPromise(
                .init(
                    promisedStreamID: HTTP2StreamID(UInt32.random(in: 1...0x3FFF_FFFF, using: &random) * 2),
                    fieldBlock: bytes(300), padding: padding))
        case 6:
            streamID = .connection
            payload = .ping(.init(opaqueData: random.next(), ack: Bool.random(using: &random)))
        case 7:
            streamID = .connection
            payload = .goAway(
                .init(
                    lastStreamID: HTTP2StreamID(UInt32.random(in: 0...UInt32.max, using: &random)),
                    errorCode: HTTP2ErrorCode(rawValue: UInt32.random(in: 0...UInt32.max, using: &random)),
                    debugData: bytes(100)))
        case 8:
            if Bool.random(using: &random) { streamID = .connection }
            payload = .windowUpdate(windowIncrement: UInt32.random(in: 1...0x7FFF_FFFF, using: &random))
        default:
            if Bool.random(using: &random) { streamID = .connection }
            payload = .unknown(
                .init(
                    type: HTTP2FrameType(rawValue: UInt8.random(in: 0xA...0xFF, using: &random)),
                    flags: UInt8.random(in: 0...255, using: &random), bytes: bytes(200)))
        }
        return HTTP2Frame(streamID: streamID, payload: payload)
    }

    @Test("Every type: 200 random frames each decode to what was encoded, and re-encode to the same octets")
    func randomFrames() throws {
        var random = SplitMix64(seed: 9113)
        let configuration = HTTP2FrameDecoder.Configuration(acceptsPushPromise: true)
        for type in 0..<10 {
            var frames: [HTTP2Frame] = []
            for _ in 0..<200 {
                frames.append(Self.randomFrame(type, using: &random))
            }
            let bytes = try HTTP2FrameTestSupport.encode(frames)
            let outcome = HTTP2FrameTestSupport.decode(bytes, configuration: configuration)
            #expect(outcome.error == nil, "type \(type)")
            #expect(outcome.frames == frames, "type \(type)")
            #expect(try HTTP2FrameTestSupport.encode(outcome.frames) == bytes, "type \(type)")
        }
    }

    @Test(
        "A field block of any size goes out as HEADERS and CONTINUATIONs and comes back whole",
        arguments: [0, 1, 16_383, 16_384, 16_385, 40_000, 65_536])
    func fieldBlocks(size: Int) throws {
        var random = SplitMix64(seed: UInt64(size))
        let block = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        for (priority, padding) in [(nil, nil), (HTTP2Priority(dependency: 3, weight: 7), UInt8(255))] {
            var bytes: [UInt8] = []
            HTTP2FrameEncoder().encodeHeaders(
                streamID: 5, fieldBlock: block, endStream: true, priority: priority, padding: padding, into: &bytes)
            let outcome = HTTP2FrameTestSupport.decode(bytes, configuration: .init(maxHeaderBlockSize: 1 << 20))
            #expect(outcome.error == nil)
            #expect(
                outcome.frames == [
                    HTTP2Frame(
                        streamID: 5,
                        payload: .headers(
                            .init(fieldBlock: block, endStream: true, priority: priority, padding: padding)))
                ])
        }
    }

    @Test("A header list HPACK-encoded, split over frames and joined again decodes to the same fields")
    func withHPACK() throws {
        var random = SplitMix64(seed: 7541)
        var fields = [HPACKHeaderField(name: ":status", value: "200")]
        for index in 0..<600 {
            let value = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                UInt8.random(in: 0x21...0x7E, using: &random)
            }
            fields.append(HPACKHeaderField(name: Array("x-field-\(index)".utf8), value: value))
        }
        var encoder = HPACKEncoder()
        let block = encoder.encode(fields)
        #expect(block.count > 2 * 16_384)
        var bytes: [UInt8] = []
        HTTP2FrameEncoder().encodeHeaders(streamID: 1, fieldBlock: block, endStream: false, into: &bytes)
        let outcome = HTTP2FrameTestSupport.decode(
            bytes, cuts: [100, 20_000], configuration: .init(maxHeaderBlockSize: 1 << 20))
        let frame = try #require(outcome.frames.first)
        guard case .headers(let headers) = frame.payload else {
            Issue.record("expected HEADERS, got \(frame)")
            return
        }
        var decoder = HPACKDecoder(maxHeaderListSize: 1 << 20)
        #expect(try decoder.decode(headers.fieldBlock) == fields)
        #expect(outcome.frames.count == 1)
    }

    @Test("A DATA frame's flow-controlled length counts its Pad Length octet and padding")
    func flowControlledLength() {
        #expect(HTTP2Frame.DataPayload(bytes: [1, 2, 3]).flowControlledLength == 3)
        #expect(HTTP2Frame.DataPayload(bytes: [1, 2, 3], padding: 0).flowControlledLength == 4)
        #expect(HTTP2Frame.DataPayload(bytes: [], padding: 255).flowControlledLength == 256)
    }

    @Test("A frame's type follows its payload")
    func types() {
        var random = SplitMix64(seed: 1)
        let types = (0..<9).map { Self.randomFrame($0, using: &random).type }
        #expect(types == (0..<9).map { HTTP2FrameType(rawValue: UInt8($0)) })
        #expect(
            HTTP2Frame(streamID: 1, payload: .continuation(.init(fieldBlockFragment: []))).type == .continuation)
        #expect(types.allSatisfy { $0.isKnown })
        #expect(!HTTP2FrameType(rawValue: 0xA).isKnown)
        #expect("\(HTTP2FrameType.windowUpdate) \(HTTP2FrameType(rawValue: 0x2A))" == "WINDOW_UPDATE type 0x2a")
    }
}
