import BothamHTTP2Wire
import FuzzSupport

/// Properties of the HTTP/2 frame decoder for any bytes a server could send. The first input byte picks our
/// limits (SETTINGS_MAX_FRAME_SIZE, the field block and CONTINUATION limits, whether push is accepted) and how
/// the rest is cut into chunks; the rest is the server's byte stream.
///
/// - it never traps or hangs; a violation is an `HTTP2FrameError`, and after a connection error every later call
///   throws the same one;
/// - the stream decodes to the same frames and the same first connection error whole, in the chunks the input
///   picks and one octet at a time;
/// - no frame's payload is over the frame limit, no field block over its limit, no CONTINUATION is delivered, and
///   the decoder never buffers more than one frame and a header beyond the chunk just appended;
/// - every frame it delivers, our encoder writes and a second decoder reads back as the same frame.
enum HTTP2FrameDecoderCheck {
    /// The SETTINGS_MAX_FRAME_SIZE values the first byte picks from.
    static let frameLimits = [16_384, 20_000]
    /// The field block limits it picks from.
    static let blockLimits = [64, 1_024, 64 * 1024, 1 << 20]
    /// The CONTINUATION frame limits it picks from.
    static let continuationLimits = [2, 32]

    /// The frames a byte stream decoded to, and the connection error that ended it, if one did.
    struct Outcome: Equatable {
        var frames: [HTTP2Frame] = []
        var connectionError: HTTP2FrameError?
    }

    /// Checks one input.
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let settings = input.byte()
        let configuration = HTTP2FrameDecoder.Configuration(
            maxFrameSize: frameLimits[Int(settings & 0x01)],
            maxHeaderBlockSize: blockLimits[Int((settings >> 1) & 0x03)],
            maxContinuationFrames: continuationLimits[Int((settings >> 3) & 0x01)],
            acceptsPushPromise: settings & 0x10 != 0)
        let chunkSize = Int(settings >> 5) * 13 + 1
        let stream = input.rest()

        let whole = decode(stream, chunkSize: stream.count, configuration: configuration)
        let chunked = decode(stream, chunkSize: chunkSize, configuration: configuration)
        fuzzExpect(chunked == whole, "chunks of \(chunkSize) decoded differently from the whole stream")
        if stream.count <= 2_048 {
            let bytewise = decode(stream, chunkSize: 1, configuration: configuration)
            fuzzExpect(bytewise == whole, "one octet at a time decoded differently from the whole stream")
        }

        let encoder = HTTP2FrameEncoder(maxFrameSize: configuration.maxFrameSize)
        for frame in whole.frames {
            check(frame, configuration: configuration)
            var written: [UInt8] = []
            switch frame.payload {
            case .pushPromise(let promise) where 5 + promise.fieldBlock.count + 255 > encoder.effectiveMaxFrameSize:
                // A promised block joined from CONTINUATIONs may not fit one frame; only HEADERS are re-split.
                continue
            case .headers(let headers):
                encoder.encodeHeaders(
                    streamID: frame.streamID, fieldBlock: headers.fieldBlock, endStream: headers.endStream,
                    priority: headers.priority, padding: headers.padding, into: &written)
            default:
                do {
                    try encoder.encode(frame, into: &written)
                } catch {
                    fuzzExpect(false, "a decoded frame failed to encode: \(error)")
                }
            }
            var mirror = HTTP2FrameDecoder(
                configuration: .init(
                    maxFrameSize: configuration.maxFrameSize, maxHeaderBlockSize: Int.max,
                    maxContinuationFrames: Int.max, acceptsPushPromise: true))
            mirror.append(written)
            do {
                let again = try mirror.nextFrame()
                fuzzExpect(again == frame, "round trip of \(frame) gave \(String(describing: again))")
                let rest = try mirror.nextFrame()
                fuzzExpect(rest == nil && mirror.bufferedByteCount == 0, "bytes left over")
            } catch {
                fuzzExpect(false, "our own frame failed to decode: \(error)")
            }
        }
    }

    /// The frames and first connection error of `stream` fed in chunks of `chunkSize`, checking the buffer bound
    /// and that a connection error sticks.
    static func decode(_ stream: [UInt8], chunkSize: Int, configuration: HTTP2FrameDecoder.Configuration)
        -> Outcome
    {
        var decoder = HTTP2FrameDecoder(configuration: configuration)
        var outcome = Outcome()
        var offset = 0
        repeat {
            let end = min(stream.count, offset + max(1, chunkSize))
            decoder.append(stream[offset..<end])
            offset = end
            while true {
                do throws(HTTP2FrameError) {
                    guard let frame = try decoder.nextFrame() else { break }
                    outcome.frames.append(frame)
                } catch {
                    guard error.isConnectionError else { continue }
                    outcome.connectionError = error
                    do throws(HTTP2FrameError) {
                        _ = try decoder.nextFrame()
                        fuzzExpect(false, "the decoder went on after \(error)")
                    } catch let again {
                        fuzzExpect(again == error, "after \(error) the decoder threw \(again)")
                    }
                    return outcome
                }
            }
            fuzzExpect(
                decoder.bufferedByteCount <= configuration.maxFrameSize + 9 + chunkSize,
                "\(decoder.bufferedByteCount) octets buffered")
        } while offset < stream.count
        return outcome
    }

    /// The properties of one delivered frame.
    static func check(_ frame: HTTP2Frame, configuration: HTTP2FrameDecoder.Configuration) {
        switch frame.payload {
        case .data(let data):
            fuzzExpect(data.flowControlledLength <= configuration.maxFrameSize, "DATA over the frame limit")
            fuzzExpect(!frame.streamID.isConnection, "DATA on stream 0")
        case .headers(let headers):
            fuzzExpect(headers.endHeaders, "a HEADERS delivered before its block ended")
            fuzzExpect(headers.fieldBlock.count <= configuration.maxHeaderBlockSize, "field block over its limit")
        case .pushPromise(let promise):
            fuzzExpect(configuration.acceptsPushPromise, "a PUSH_PROMISE delivered while push is refused")
            fuzzExpect(promise.endHeaders && promise.promisedStreamID.isServerInitiated, "bad PUSH_PROMISE")
            fuzzExpect(promise.fieldBlock.count <= configuration.maxHeaderBlockSize, "field block over its limit")
        case .continuation:
            fuzzExpect(false, "a CONTINUATION delivered")
        case .windowUpdate(let increment):
            fuzzExpect((1...0x7FFF_FFFF).contains(increment), "WINDOW_UPDATE of \(increment)")
        case .settings(.parameters(let parameters)):
            for parameter in parameters {
                do {
                    try parameter.validate()
                } catch {
                    fuzzExpect(false, "an invalid setting delivered: \(parameter)")
                }
            }
        case .unknown(let unknown):
            fuzzExpect(!unknown.type.isKnown, "a known type delivered as unknown")
        default:
            break
        }
    }
}
