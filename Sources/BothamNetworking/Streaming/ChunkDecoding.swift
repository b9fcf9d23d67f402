import Foundation

/// Turns the bytes of a streamed body into values (lines, events), whatever the chunk boundaries.
protocol ChunkDecoder {
    associatedtype Value
    /// Decodes `bytes`, appending the values they complete to `values`; throws when the body cannot be decoded (the
    /// values appended before the error are still delivered).
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into values: inout [Value]) throws(APIClientError)
    /// Appends the values the end of the body completes (an unterminated last line, say).
    mutating func finish(into values: inout [Value])
}

/// What the decoding iterators share: the values one chunk produced, handed out one at a time; an error met part-way
/// through a chunk, reported after the values before it; and the end, after which `next` returns `nil` (as
/// `AsyncIteratorProtocol` requires after an error too). A decoding error ends the request.
struct ChunkDecoding<Decoder: ChunkDecoder> {
    var chunks: HTTPBodyStream.AsyncIterator
    var decoder: Decoder
    private var ready: [Decoder.Value] = []
    private var readyIndex = 0
    private var failure: APIClientError?
    private var ended = false

    init(chunks: HTTPBodyStream.AsyncIterator, decoder: Decoder) {
        self.chunks = chunks
        self.decoder = decoder
    }

    mutating func next() async throws(APIClientError) -> Decoder.Value? {
        while true {
            if readyIndex < ready.count {
                defer { readyIndex += 1 }
                return ready[readyIndex]
            }
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if let failure {
                self.failure = nil
                ended = true
                throw failure
            }
            if ended { return nil }
            let chunk: Data?
            do {
                chunk = try await chunks.next()
            } catch {
                ended = true
                throw error
            }
            guard let chunk else {
                ended = true
                decoder.finish(into: &ready)
                continue
            }
            var values: [Decoder.Value] = []
            do {
                try chunk.withBytes { (bytes) throws(APIClientError) in try decoder.decode(bytes, into: &values) }
            } catch {
                failure = error
                chunks.stream.cancel()
            }
            ready = values
        }
    }

    /// Ends the body's request (a consumer of the values gave up on them).
    func cancel() {
        chunks.stream.cancel()
    }
}

/// Lines of UTF-8 text.
struct LineDecoder: ChunkDecoder {
    var splitter: LineSplitter

    mutating func decode(_ bytes: UnsafeRawBufferPointer, into values: inout [String]) throws(APIClientError) {
        try splitter.feed(bytes) { line in values.append(String(decoding: line, as: UTF8.self)) }
    }

    mutating func finish(into values: inout [String]) {
        let rest = splitter.remainder
        if !rest.isEmpty { values.append(String(decoding: rest, as: UTF8.self)) }
    }
}

extension ServerSentEvent.Parser: ChunkDecoder {
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into values: inout [ServerSentEvent]) throws(APIClientError) {
        try feed(bytes) { values.append($0) }
    }

    /// An event not ended by a blank line is dropped at the end of the stream.
    mutating func finish(into values: inout [ServerSentEvent]) {}
}
