import Foundation

extension HTTPBodyStream {
    /// The body as lines of text (UTF-8; invalid bytes become U+FFFD), without their line ends.
    ///
    /// Lines end with LF, CRLF or a lone CR; a last line without a line end is delivered too. A line longer than
    /// 1 MiB ends the sequence with ``APIClientError/parsingError(body:underlying:)``.
    ///
    /// ```swift
    /// for try await line in try await apiClient.stream(.get, "/logs/tail").lines {
    ///     print(line)
    /// }
    /// ```
    public var lines: Lines { Lines(stream: self, maxLineBytes: 1 << 20) }

    /// The body as lines of text, with at most `maxLineBytes` bytes per line.
    package func lines(maxLineBytes: Int) -> Lines {
        Lines(stream: self, maxLineBytes: Swift.max(1, maxLineBytes))
    }

    /// The lines of a streamed body; see ``HTTPBodyStream/lines``.
    public struct Lines: AsyncSequence, Sendable {

        let stream: HTTPBodyStream
        let maxLineBytes: Int

        /// Starts reading lines.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(
                decoding: ChunkDecoding(
                    chunks: stream.makeAsyncIterator(),
                    decoder: LineDecoder(splitter: LineSplitter(maxLineBytes: maxLineBytes))))
        }

        /// Reads lines one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {

            var decoding: ChunkDecoding<LineDecoder>

            /// The next line, or `nil` at the end of the body (and after an error has been thrown).
            public mutating func next() async throws(APIClientError) -> String? {
                try await decoding.next()
            }
        }
    }

    /// The body as JSON Lines / NDJSON: one `T` decoded from each non-blank line.
    ///
    /// ```swift
    /// struct Order: Decodable { let id: Int }
    /// for try await order in try await apiClient.stream(.get, "/orders/export").body.jsonLines(decoding: Order.self) {
    ///     print(order.id)
    /// }
    /// ```
    ///
    /// A line that does not decode ends the sequence with ``APIClientError/parsingError(body:underlying:)`` carrying
    /// that line.
    public func jsonLines<T: Decodable & Sendable>(
        decoding type: T.Type, decoder: JSONDecoder = JSONDecoder(), maxLineBytes: Int = 1 << 20
    ) -> JSONLines<T> {
        JSONLines(lines: lines(maxLineBytes: maxLineBytes), decoder: decoder)
    }

    /// Values decoded from the lines of a streamed body; see ``HTTPBodyStream/jsonLines(decoding:decoder:maxLineBytes:)``.
    public struct JSONLines<Value: Decodable & Sendable>: AsyncSequence, @unchecked Sendable {
        // @unchecked: `JSONDecoder` is not declared Sendable on every platform; it is only read (its `decode` is
        // thread-safe for a decoder nobody configures concurrently), and each iterator uses it from one task.

        let lines: Lines
        let decoder: JSONDecoder

        /// Starts reading values.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(lines: lines.makeAsyncIterator(), decoder: decoder)
        }

        /// Reads values one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {

            var lines: Lines.AsyncIterator
            let decoder: JSONDecoder
            var ended = false

            /// The next value, or `nil` at the end of the body (and after an error has been thrown).
            public mutating func next() async throws(APIClientError) -> Value? {
                guard !ended else { return nil }
                while let line = try await lines.next() {
                    if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                    let data = Data(line.utf8)
                    do {
                        return try decoder.decode(Value.self, from: data)
                    } catch {
                        ended = true
                        lines.decoding.cancel()
                        throw .parsingError(body: data, underlying: error)
                    }
                }
                ended = true
                return nil
            }
        }
    }
}
