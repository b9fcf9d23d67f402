import BothamNetworking
import Foundation

/// A copy of a streamed request body taken while the transport reads it, so ``RecordingHTTPClient`` can record it
/// without reading it twice: the transport pulls chunks through the tee, which keeps the first
/// `RecordingOptions/maximumBodySize` bytes and counts the rest.
///
/// Each attempt the transport makes (a 307/308 resend of a replayable body) starts a new copy; the recording holds
/// the last one.
final class StreamedBodyTee: Sendable {
    /// What an attempt has read so far.
    struct Capture: Sendable {
        /// The bytes read, up to the limit.
        var data = Data()
        /// How many bytes were read in all.
        var size = 0
        /// Whether the body was read to its end (the sequence ended, or its declared length was reached).
        var ended = false
    }

    private let limit: Int
    private let length: Int?
    private let state = Lock(Capture())

    /// A tee keeping up to `limit` bytes of a body that declares `length` bytes (`nil`: unknown).
    init(limit: Int, length: Int?) {
        self.limit = max(0, limit)
        self.length = length
    }

    /// What the last attempt read.
    var capture: Capture {
        state.withLock { $0 }
    }

    /// The body to send instead of `original`: the same chunks, copied as they are read. A replayable original
    /// stays replayable (each attempt makes new chunks from it); a single-use one is asked for its chunks now, so
    /// its already-used error surfaces before anything is sent.
    ///
    /// - Throws: what `original.makeChunks()` throws.
    func body(wrapping original: HTTPBody.Stream, contentType: String?) throws(APIClientError) -> HTTPBody {
        guard original.isReplayable else {
            return .stream(
                length: original.length, contentType: contentType,
                TeeSequence(tee: self, prefix: [], source: .success(try original.makeChunks())))
        }
        return .stream(length: original.length, contentType: contentType) { [self] in
            TeeSequence(
                tee: self, prefix: [],
                source: Result { () throws(APIClientError) in try original.makeChunks() })
        }
    }

    /// A single-use body of `original`'s length that hands out `read` (chunks already read from `rest`) and then
    /// the rest of `rest`: `original`, whose chunks were made once, sent without making them again.
    static func resumed(
        _ original: HTTPBody.Stream, contentType: String?, read: [Data], rest: HTTPBody.Stream.Chunks
    ) -> HTTPBody {
        // A tee that keeps nothing: only its sequence is wanted here.
        let passThrough = StreamedBodyTee(limit: 0, length: nil)
        return .stream(
            length: original.length, contentType: contentType,
            TeeSequence(tee: passThrough, prefix: read, source: .success(rest)))
    }

    /// Starts the copy of a new attempt.
    fileprivate func begin() {
        state.withLock { $0 = Capture() }
    }

    /// Copies `chunk`, or marks the end when it is `nil`.
    fileprivate func copy(_ chunk: Data?) {
        state.withLock { capture in
            guard let chunk else {
                capture.ended = true
                return
            }
            if capture.size + chunk.count <= limit { capture.data.append(chunk) }
            capture.size += chunk.count
            if let length, capture.size >= length { capture.ended = true }
        }
    }

    /// Reads `body` for a replay's comparison: up to the limit (and one chunk beyond, to know it is over) and
    /// returns the chunks read, what they are, and the chunks to read the rest from.
    static func read(
        _ body: HTTPBody.Stream, limit: Int
    ) async throws(APIClientError) -> (chunks: [Data], capture: Capture, rest: HTTPBody.Stream.Chunks) {
        let source = try body.makeChunks()
        let tee = StreamedBodyTee(limit: limit, length: body.length)
        var chunks: [Data] = []
        while tee.capture.size <= limit, !tee.capture.ended {
            let chunk = try await source.next()
            tee.copy(chunk)
            guard let chunk else { break }
            chunks.append(chunk)
        }
        return (chunks, tee.capture, source)
    }
}

/// The chunks of one attempt through a ``StreamedBodyTee``.
private struct TeeSequence: AsyncSequence, Sendable {
    typealias Element = Data

    let tee: StreamedBodyTee
    let prefix: [Data]
    let source: Result<HTTPBody.Stream.Chunks, APIClientError>

    struct AsyncIterator: AsyncIteratorProtocol {
        let tee: StreamedBodyTee
        var prefix: [Data]
        let source: Result<HTTPBody.Stream.Chunks, APIClientError>

        mutating func next() async throws -> Data? {
            let chunk: Data?
            if !prefix.isEmpty {
                chunk = prefix.removeFirst()
            } else {
                do {
                    chunk = try await source.get().next()
                } catch {
                    // `Chunks.next()` wraps the sequence's error, and the body made from this sequence wraps what
                    // it throws again: unwrap it, so the caller sees the error it would have seen unrecorded.
                    if case .httpClientError(let underlying) = error { throw underlying }
                    throw error
                }
            }
            tee.copy(chunk)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        tee.begin()
        return AsyncIterator(tee: tee, prefix: prefix, source: source)
    }
}
