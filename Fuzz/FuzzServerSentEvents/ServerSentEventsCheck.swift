import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of ``ServerSentEvent/Parser``, for any bytes a server could send. The first two input bytes are seeds
/// for where the rest (the stream, at most ``maxStreamBytes``) is split into chunks, as reads from a socket would.
///
/// - it never traps or hangs; the only error is `parsingError` for a line over ``maxLineBytes``;
/// - the outcome does not depend on the chunking: in one piece, in two pieces at the first seed's offset (with an
///   empty chunk between them), one byte at a time and in pieces of the second seed's size, it gives the same
///   events, the same `lastEventID` and `reconnectionTime`, and the same error (after the same events) or none;
/// - `feed(_: Data)` returns exactly the events `feed(_:dispatch:)` dispatches for the same chunk, and throws when
///   it throws;
/// - events have a non-empty type without CR or LF, data without CR, and the last event ID never holds NUL.
enum ServerSentEventsCheck {
    static let maxLineBytes = 256
    static let maxStreamBytes = 4 * 1024

    /// What parsing a whole stream gave: every event dispatched (those before an error included), the parser's
    /// state at the end, and the error that stopped it, if any.
    struct Outcome: Equatable, CustomStringConvertible {
        var events: [ServerSentEvent] = []
        var lastEventID = ""
        var reconnectionTime: Duration?
        var failure: HTTPBodyStream.DecodingError?

        var description: String {
            "\(events.count) events \(events), lastEventID \(Array(lastEventID.utf8)), "
                + "retry \(String(describing: reconnectionTime)), failure \(String(describing: failure))"
        }
    }

    static func run(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let splitSeed = Int(reader.byte())
        let sizeSeed = Int(reader.byte())
        let stream = Array(reader.rest().prefix(maxStreamBytes))
        let count = stream.count

        let offset = count * splitSeed / 255
        let pieceSize = sizeSeed % 64 + 1
        let whole = parse([stream])
        let halves = parse([Array(stream[..<offset]), [], Array(stream[offset...])])
        let single = parse(pieces(of: stream, size: 1))
        let chosen = parse(pieces(of: stream, size: pieceSize))
        fuzzExpect(halves == whole, "split at \(offset) of \(count): \(halves) but in one piece: \(whole)")
        fuzzExpect(single == whole, "byte by byte: \(single) but in one piece: \(whole)")
        fuzzExpect(chosen == whole, "pieces of \(pieceSize) bytes: \(chosen) but in one piece: \(whole)")
        check(whole)
    }

    private static func pieces(of bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// Feeds `chunks` in order to two parsers, one through each `feed` method, until the end or the first error.
    private static func parse(_ chunks: [[UInt8]]) -> Outcome {
        var outcome = Outcome()
        var dispatching = ServerSentEvent.Parser(maxLineBytes: maxLineBytes)
        var returning = ServerSentEvent.Parser(maxLineBytes: maxLineBytes)
        for chunk in chunks {
            var dispatched: [ServerSentEvent] = []
            var dispatchError: APIClientError?
            chunk.withUnsafeBytes { bytes in
                do throws(APIClientError) {
                    try dispatching.feed(bytes) { dispatched.append($0) }
                } catch {
                    dispatchError = error
                }
            }
            outcome.events += dispatched
            do throws(APIClientError) {
                let returned = try returning.feed(Data(chunk))
                fuzzExpect(dispatchError == nil, "feed(_: Data) returned \(returned) where dispatch threw")
                fuzzExpect(returned == dispatched, "feed(_: Data) returned \(returned) but dispatched \(dispatched)")
            } catch {
                fuzzExpect(dispatchError != nil, "feed(_: Data) threw \(error) where dispatch did not")
            }
            fuzzExpect(
                returning.lastEventID == dispatching.lastEventID
                    && returning.reconnectionTime == dispatching.reconnectionTime,
                "the two feed methods leave different states")
            if let dispatchError {
                outcome.failure = lineTooLong(dispatchError)
                break
            }
        }
        outcome.lastEventID = dispatching.lastEventID
        outcome.reconnectionTime = dispatching.reconnectionTime
        return outcome
    }

    /// The error's reason, which must be a line over the limit.
    private static func lineTooLong(_ error: APIClientError) -> HTTPBodyStream.DecodingError? {
        guard case .parsingError(_, let underlying) = error, let reason = underlying as? HTTPBodyStream.DecodingError,
            reason == .lineTooLong(limit: maxLineBytes)
        else {
            fuzzExpect(false, "unexpected error \(error)")
            return nil
        }
        return reason
    }

    private static func check(_ outcome: Outcome) {
        for event in outcome.events {
            fuzzExpect(!event.type.isEmpty, "an event with an empty type")
            fuzzExpect(!event.type.utf8.contains { $0 == 0x0D || $0 == 0x0A }, "type \(Array(event.type.utf8))")
            fuzzExpect(!event.data.utf8.contains(0x0D), "data \(Array(event.data.utf8))")
            if let id = event.id { fuzzExpect(!id.isEmpty && !id.utf8.contains(0), "id \(Array(id.utf8))") }
        }
        fuzzExpect(!outcome.lastEventID.utf8.contains(0), "lastEventID \(Array(outcome.lastEventID.utf8))")
        if let time = outcome.reconnectionTime { fuzzExpect(time >= .zero, "reconnection time \(time)") }
    }
}
