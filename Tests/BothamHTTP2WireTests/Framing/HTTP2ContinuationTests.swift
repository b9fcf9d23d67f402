import Testing

@testable import BothamHTTP2Wire

/// The CONTINUATION rule (RFC 9113 §6.10, §4.3): a field block split over frames is delivered once, whole; while
/// it is open nothing else may come; and its size and frame count are bounded against floods (the
/// CVE-2024-27316 kind).
@Suite("HTTP/2 frames: CONTINUATION joining and flood limits", .timeLimit(.minutes(1)))
struct HTTP2ContinuationTests {
    private static func continuation(stream: HTTP2StreamID = 1, _ fragment: [UInt8], end: Bool = false) -> HTTP2Frame {
        HTTP2Frame(streamID: stream, payload: .continuation(.init(fieldBlockFragment: fragment, endHeaders: end)))
    }

    private static let openHeaders = HTTP2Frame(
        streamID: 1, payload: .headers(.init(fieldBlock: [0x82], endStream: true, endHeaders: false)))

    @Test("HEADERS and three CONTINUATIONs arrive as one HEADERS with the block joined and END_STREAM kept")
    func joinsHeaders() throws {
        let bytes = try HTTP2FrameTestSupport.encode([
            Self.openHeaders, Self.continuation([0x84]), Self.continuation([]),
            Self.continuation([0x86, 0x87], end: true),
        ])
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        #expect(outcome.error == nil)
        #expect(
            outcome.frames == [
                HTTP2Frame(
                    streamID: 1, payload: .headers(.init(fieldBlock: [0x82, 0x84, 0x86, 0x87], endStream: true)))
            ])
    }

    @Test("PUSH_PROMISE and CONTINUATIONs arrive joined when push is accepted")
    func joinsPushPromise() throws {
        let bytes = try HTTP2FrameTestSupport.encode([
            HTTP2Frame(
                streamID: 1,
                payload: .pushPromise(.init(promisedStreamID: 4, fieldBlock: [1], endHeaders: false, padding: 2))),
            Self.continuation([2, 3], end: true),
        ])
        let outcome = HTTP2FrameTestSupport.decode(bytes, configuration: .init(acceptsPushPromise: true))
        #expect(
            outcome.frames == [
                HTTP2Frame(
                    streamID: 1, payload: .pushPromise(.init(promisedStreamID: 4, fieldBlock: [1, 2, 3], padding: 2)))
            ])
        #expect(
            HTTP2FrameTestSupport.decode(bytes).error
                == .connection(.protocolError, .pushPromiseRefused(promised: 4)))
    }

    @Test(
        "Inside a field block any frame but a CONTINUATION of its stream is a connection PROTOCOL_ERROR",
        arguments: [
            (HTTP2Frame(streamID: 1, payload: .data(.init(bytes: [1]))), HTTP2FrameType.data, HTTP2StreamID(1)),
            (HTTP2Frame(streamID: 3, payload: .continuation(.init(fieldBlockFragment: [1]))), .continuation, 3),
            (HTTP2Frame(streamID: 1, payload: .headers(.init(fieldBlock: [1]))), .headers, 1),
            (HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 1))), .ping, .connection),
            (HTTP2Frame(streamID: .connection, payload: .settings(.ack)), .settings, .connection),
            (HTTP2Frame(streamID: 1, payload: .priority(HTTP2Priority(dependency: 0))), .priority, 1),
            (
                HTTP2Frame(streamID: 1, payload: .unknown(.init(type: HTTP2FrameType(rawValue: 0x20)))),
                HTTP2FrameType(rawValue: 0x20), HTTP2StreamID(1)
            ),
        ])
    func interleaved(frame: HTTP2Frame, type: HTTP2FrameType, stream: HTTP2StreamID) throws {
        let bytes = try HTTP2FrameTestSupport.encode([Self.openHeaders, Self.continuation([2]), frame])
        let expected = HTTP2FrameError.connection(
            .protocolError, .continuationExpected(stream: 1, received: type, on: stream))
        #expect(HTTP2FrameTestSupport.decode(bytes) == .init(frames: [], error: expected))
        #expect(HTTP2FrameTestSupport.decodeBytewise(bytes) == .init(frames: [], error: expected))
    }

    @Test("A block of exactly the limit decodes; one octet more is ENHANCE_YOUR_CALM")
    func blockSizeLimit() throws {
        let configuration = HTTP2FrameDecoder.Configuration(maxHeaderBlockSize: 40_000)
        let first = HTTP2Frame(
            streamID: 1, payload: .headers(.init(fieldBlock: Array(repeating: 1, count: 16_000), endHeaders: false)))
        let exact = try HTTP2FrameTestSupport.encode([
            first, Self.continuation(Array(repeating: 2, count: 16_000)),
            Self.continuation(Array(repeating: 3, count: 8_000), end: true),
        ])
        let fits = HTTP2FrameTestSupport.decode(exact, configuration: configuration)
        #expect(fits.error == nil)
        #expect(fits.frames.count == 1)
        let over = try HTTP2FrameTestSupport.encode([
            first, Self.continuation(Array(repeating: 2, count: 16_000)),
            Self.continuation(Array(repeating: 3, count: 8_001), end: true),
        ])
        #expect(
            HTTP2FrameTestSupport.decode(over, configuration: configuration)
                == .init(error: .connection(.enhanceYourCalm, .headerBlockTooLarge(limit: 40_000))))
        // A HEADERS alone over the limit is refused too.
        let alone = try HTTP2FrameTestSupport.encode([
            HTTP2Frame(streamID: 1, payload: .headers(.init(fieldBlock: Array(repeating: 1, count: 101))))
        ])
        #expect(
            HTTP2FrameTestSupport.error(alone, configuration: .init(maxHeaderBlockSize: 100))
                == .connection(.enhanceYourCalm, .headerBlockTooLarge(limit: 100)))
    }

    @Test("An endless CONTINUATION flood is refused once the block passes the limit, with memory bounded")
    func floodOfLargeContinuations() throws {
        var decoder = HTTP2FrameDecoder()
        decoder.append(try HTTP2FrameEncoder().encode(Self.openHeaders))
        #expect(try decoder.nextFrame() == nil)
        let flood = try HTTP2FrameEncoder().encode(Self.continuation(Array(repeating: 0x41, count: 16_384)))
        var accepted = 0
        var caught: HTTP2FrameError?
        for _ in 0..<1_000 {
            decoder.append(flood)
            do throws(HTTP2FrameError) {
                #expect(try decoder.nextFrame() == nil)
                accepted += 1
            } catch {
                caught = error
                break
            }
            #expect(decoder.bufferedByteCount <= 16_384 + 9)
        }
        // 1 + 3 × 16,384 octets fit in 64 KiB; the fourth CONTINUATION would pass it.
        #expect(accepted == 3)
        #expect(caught == .connection(.enhanceYourCalm, .headerBlockTooLarge(limit: 64 * 1024)))
        // Refused from the frame header: the fourth CONTINUATION's payload was not waited for.
        var early = HTTP2FrameDecoder()
        early.append(try HTTP2FrameEncoder().encode(Self.openHeaders) + flood + flood + flood + flood.prefix(9))
        #expect(throws: HTTP2FrameError.connection(.enhanceYourCalm, .headerBlockTooLarge(limit: 64 * 1024))) {
            try early.nextFrame()
        }
    }

    @Test("A flood of empty CONTINUATIONs is refused past the frame limit; the limit itself decodes")
    func floodOfEmptyContinuations() throws {
        let empty = try HTTP2FrameEncoder().encode(Self.continuation([]))
        let opening = try HTTP2FrameEncoder().encode(Self.openHeaders)
        let last = try HTTP2FrameEncoder().encode(Self.continuation([0x84], end: true))
        let atLimit = opening + Array(Array(repeating: empty, count: 31).joined()) + last
        #expect(HTTP2FrameTestSupport.decode(atLimit).frames.count == 1)
        let flood = opening + Array(Array(repeating: empty, count: 10_000).joined())
        #expect(
            HTTP2FrameTestSupport.decode(flood)
                == .init(error: .connection(.enhanceYourCalm, .tooManyContinuations(limit: 32))))
        let configured = HTTP2FrameTestSupport.decode(
            opening + empty + empty + last, configuration: .init(maxContinuationFrames: 2))
        #expect(configured.error == .connection(.enhanceYourCalm, .tooManyContinuations(limit: 2)))
    }

    @Test("A second field block after the first one ends decodes on its own")
    func blocksInTurn() throws {
        let bytes = try HTTP2FrameTestSupport.encode([
            Self.openHeaders, Self.continuation([0x84], end: true),
            HTTP2Frame(streamID: 3, payload: .headers(.init(fieldBlock: [0x88], endHeaders: false))),
            Self.continuation(stream: 3, [0x89], end: true),
        ])
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        #expect(
            outcome.frames == [
                HTTP2Frame(streamID: 1, payload: .headers(.init(fieldBlock: [0x82, 0x84], endStream: true))),
                HTTP2Frame(streamID: 3, payload: .headers(.init(fieldBlock: [0x88, 0x89]))),
            ])
    }
}
