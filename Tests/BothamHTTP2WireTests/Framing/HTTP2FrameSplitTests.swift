import Testing

@testable import BothamHTTP2Wire

/// Bytes arrive in chunks of any size: a byte stream cut at any offset, or fed one octet at a time, decodes to
/// the same frames and the same error as when it arrives whole.
@Suite("HTTP/2 frames: decoding split at every offset", .timeLimit(.minutes(1)))
struct HTTP2FrameSplitTests {
    /// One frame of every type (a field block split over CONTINUATION frames among them), padded ones too.
    static func connection() throws -> (bytes: [UInt8], frames: [HTTP2Frame]) {
        let frames: [HTTP2Frame] = [
            HTTP2Frame(
                streamID: .connection, payload: .settings(.parameters([HTTP2Setting(.maxConcurrentStreams, 100)]))),
            HTTP2Frame(streamID: .connection, payload: .settings(.ack)),
            HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 1 << 20)),
            HTTP2Frame(
                streamID: 1,
                payload: .headers(
                    .init(
                        fieldBlock: [0x88, 0x40, 0x01, 0x61], endHeaders: false,
                        priority: HTTP2Priority(dependency: 0, weight: 200), padding: 5))),
            HTTP2Frame(streamID: 1, payload: .continuation(.init(fieldBlockFragment: [1, 0x62], endHeaders: false))),
            HTTP2Frame(streamID: 1, payload: .continuation(.init(fieldBlockFragment: [], endHeaders: false))),
            HTTP2Frame(streamID: 1, payload: .continuation(.init(fieldBlockFragment: [0x82]))),
            HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array("hello".utf8), padding: 3))),
            HTTP2Frame(streamID: 1, payload: .priority(HTTP2Priority(exclusive: true, dependency: 3, weight: 1))),
            HTTP2Frame(
                streamID: 3, payload: .unknown(.init(type: HTTP2FrameType(rawValue: 0xF0), flags: 0xFF, bytes: [1]))),
            HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 0xDEAD_BEEF, ack: true))),
            HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array(repeating: 0x5A, count: 300), endStream: true))),
            HTTP2Frame(streamID: 3, payload: .headers(.init(fieldBlock: [0x88], endStream: true))),
            HTTP2Frame(streamID: 5, payload: .rstStream(.refusedStream)),
            HTTP2Frame(
                streamID: .connection,
                payload: .goAway(.init(lastStreamID: 3, errorCode: .enhanceYourCalm, debugData: Array("calm".utf8)))),
        ]
        let bytes = try HTTP2FrameTestSupport.encode(frames)
        let joined = HTTP2Frame(
            streamID: 1,
            payload: .headers(
                .init(
                    fieldBlock: [0x88, 0x40, 0x01, 0x61, 1, 0x62, 0x82],
                    priority: HTTP2Priority(dependency: 0, weight: 200),
                    padding: 5)))
        let delivered = Array(frames[0..<3]) + [joined] + Array(frames[7...])
        return (bytes, delivered)
    }

    @Test("Whole, the stream decodes to its frames with the field block joined")
    func whole() throws {
        let (bytes, frames) = try Self.connection()
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        #expect(outcome.error == nil)
        #expect(outcome.frames == frames)
        #expect(frames.count == 12)
    }

    @Test("Cut in two at every offset, it decodes the same")
    func everyOffset() throws {
        let (bytes, frames) = try Self.connection()
        for cut in 1..<bytes.count {
            let outcome = HTTP2FrameTestSupport.decode(bytes, cuts: [cut])
            #expect(outcome.error == nil, "cut at \(cut)")
            #expect(outcome.frames == frames, "cut at \(cut)")
        }
    }

    @Test("Fed one octet at a time, or in chunks of 2 to 17 octets, it decodes the same")
    func smallChunks() throws {
        let (bytes, frames) = try Self.connection()
        #expect(HTTP2FrameTestSupport.decodeBytewise(bytes).frames == frames)
        for size in 2...17 {
            let cuts = Array(stride(from: size, to: bytes.count, by: size))
            #expect(HTTP2FrameTestSupport.decode(bytes, cuts: cuts).frames == frames, "chunks of \(size)")
        }
    }

    @Test("A violation cut at every offset gives the same frames before it, then the same error")
    func errorAtEveryOffset() throws {
        let (good, frames) = try Self.connection()
        let bad = HTTP2FrameTestSupport.raw(type: 0x6, stream: 0, payload: [1, 2, 3])
        let bytes = good + bad + good
        let expected = HTTP2FrameError.connection(.frameSizeError, .wrongLength(.ping, length: 3, expected: 8))
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            let outcome = HTTP2FrameTestSupport.decode(bytes, cuts: [cut, cut + 3])
            #expect(outcome.frames == frames, "cut at \(cut)")
            #expect(outcome.error == expected, "cut at \(cut)")
        }
    }

    @Test("The buffer is compacted as frames are read: it never holds much more than one frame")
    func bufferStaysSmall() throws {
        let frame = HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array(repeating: 1, count: 1_000))))
        let one = try HTTP2FrameEncoder().encode(frame)
        var decoder = HTTP2FrameDecoder()
        var delivered = 0
        for _ in 0..<2_000 {
            decoder.append(one[0..<500])
            #expect(try decoder.nextFrame() == nil)
            decoder.append(one[500...])
            while let next = try decoder.nextFrame() {
                #expect(next == frame)
                delivered += 1
            }
            #expect(decoder.bufferedByteCount == 0)
        }
        #expect(delivered == 2_000)
    }
}
