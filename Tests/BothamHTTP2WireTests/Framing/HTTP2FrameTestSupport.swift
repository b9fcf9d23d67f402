@testable import BothamHTTP2Wire

/// Helpers of the frame tests: raw frames of any shape, and decoding a byte stream whole or in chunks.
enum HTTP2FrameTestSupport {
    /// What decoding a byte stream gave: the frames delivered, and the error that stopped it, if any.
    struct Outcome: Equatable, CustomStringConvertible {
        var frames: [HTTP2Frame] = []
        var error: HTTP2FrameError?

        var description: String { "\(frames.count) frames, then \(error.map { "\($0)" } ?? "no error")" }
    }

    /// A frame of any type, flags, stream and payload (the reserved bit included in `stream`), with the header's
    /// length field `length` (by default the payload's).
    static func raw(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = [], length: Int? = nil)
        -> [UInt8]
    {
        let length = length ?? payload.count
        return [
            UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
            UInt8(truncatingIfNeeded: length), type, flags, UInt8(truncatingIfNeeded: stream >> 24),
            UInt8(truncatingIfNeeded: stream >> 16), UInt8(truncatingIfNeeded: stream >> 8),
            UInt8(truncatingIfNeeded: stream),
        ] + payload
    }

    /// The octets of `frames`, each written by a default encoder (a test that writes an oversized frame uses
    /// ``raw(type:flags:stream:payload:length:)``).
    static func encode(_ frames: [HTTP2Frame], maxFrameSize: Int = 16_384) throws -> [UInt8] {
        let encoder = HTTP2FrameEncoder(maxFrameSize: maxFrameSize)
        var bytes: [UInt8] = []
        for frame in frames {
            try encoder.encode(frame, into: &bytes)
        }
        return bytes
    }

    /// Decodes `bytes` fed in chunks that end at `cuts` (offsets, ascending), calling `nextFrame()` until nil
    /// after each chunk; decoding goes on after a stream error (recorded as the outcome's error only when no
    /// connection error follows) and stops at a connection error.
    static func decode(
        _ bytes: [UInt8], cuts: [Int] = [], configuration: HTTP2FrameDecoder.Configuration = .init()
    ) -> Outcome {
        var decoder = HTTP2FrameDecoder(configuration: configuration)
        var outcome = Outcome()
        var from = 0
        for end in cuts.filter({ $0 > 0 && $0 < bytes.count }) + [bytes.count] {
            decoder.append(bytes[from..<end])
            from = end
            while true {
                do throws(HTTP2FrameError) {
                    guard let frame = try decoder.nextFrame() else { break }
                    outcome.frames.append(frame)
                } catch {
                    outcome.error = error
                    if error.isConnectionError { return outcome }
                }
            }
        }
        return outcome
    }

    /// Decodes `bytes` fed one octet at a time.
    static func decodeBytewise(_ bytes: [UInt8], configuration: HTTP2FrameDecoder.Configuration = .init())
        -> Outcome
    {
        decode(bytes, cuts: Array(0..<bytes.count), configuration: configuration)
    }

    /// The first error decoding `bytes` whole throws, if any.
    static func error(_ bytes: [UInt8], configuration: HTTP2FrameDecoder.Configuration = .init())
        -> HTTP2FrameError?
    {
        decode(bytes, configuration: configuration).error
    }

    /// `frame` as the decoder delivers it: field blocks whole, so END_HEADERS set.
    static func delivered(_ frame: HTTP2Frame) -> HTTP2Frame {
        var frame = frame
        switch frame.payload {
        case .headers(var headers):
            headers.endHeaders = true
            frame.payload = .headers(headers)
        case .pushPromise(var promise):
            promise.endHeaders = true
            frame.payload = .pushPromise(promise)
        default:
            break
        }
        return frame
    }
}
