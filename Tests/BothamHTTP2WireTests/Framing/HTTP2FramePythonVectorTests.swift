import Testing

@testable import BothamHTTP2Wire

/// Frames written by an independent implementation (Python's `hyperframe`, see scripts/h2-frame-vectors.py):
/// every type, padding, priority fields, unknown error codes and settings, ALTSVC and extension frames (unknown
/// to us), field blocks over CONTINUATION frames, and runs of mixed frames.
@Suite("HTTP/2 frames: frames from another implementation", .timeLimit(.minutes(1)))
struct HTTP2FramePythonVectorTests {
    @Test("Every run decodes to the frames that implementation was given")
    func decodes() {
        #expect(HTTP2FramePythonVectors.vectors.count == 81)
        var frames = 0
        for vector in HTTP2FramePythonVectors.vectors {
            let outcome = HTTP2FrameTestSupport.decode(
                HPACKTestSupport.bytes(vector.hex), configuration: .init(acceptsPushPromise: true))
            #expect(outcome.error == nil, "\(vector.name)")
            #expect(outcome.frames == vector.decoded, "\(vector.name)")
            frames += vector.wire.count
        }
        #expect(frames == 172)
    }

    @Test("Our encoder writes each of those frames to the same octets")
    func encodesByteExact() throws {
        for vector in HTTP2FramePythonVectors.vectors {
            let bytes = try HTTP2FrameTestSupport.encode(vector.wire)
            #expect(
                HPACKTestSupport.hex(bytes) == HPACKTestSupport.hex(HPACKTestSupport.bytes(vector.hex)),
                "\(vector.name)")
        }
    }

    @Test("Fed one octet at a time, every run decodes the same")
    func decodesBytewise() {
        for vector in HTTP2FramePythonVectors.vectors {
            let outcome = HTTP2FrameTestSupport.decodeBytewise(
                HPACKTestSupport.bytes(vector.hex), configuration: .init(acceptsPushPromise: true))
            #expect(outcome.frames == vector.decoded, "\(vector.name)")
        }
    }

    @Test("With push disabled (our default) every run with a PUSH_PROMISE ends at it with a PROTOCOL_ERROR")
    func pushRefused() {
        var refused = 0
        for vector in HTTP2FramePythonVectors.vectors {
            guard
                let index = vector.decoded.firstIndex(where: {
                    if case .pushPromise = $0.payload { true } else { false }
                }),
                case .pushPromise(let promise) = vector.decoded[index].payload
            else { continue }
            let outcome = HTTP2FrameTestSupport.decode(HPACKTestSupport.bytes(vector.hex))
            #expect(outcome.frames == Array(vector.decoded[..<index]), "\(vector.name)")
            #expect(
                outcome.error == .connection(.protocolError, .pushPromiseRefused(promised: promise.promisedStreamID)),
                "\(vector.name)")
            refused += 1
        }
        #expect(refused >= 9)
    }
}
