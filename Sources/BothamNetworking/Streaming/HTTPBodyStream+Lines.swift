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
    public var lines: Decoded<String> { lines(maxLineBytes: 1 << 20) }

    /// The body as lines of text, with at most `maxLineBytes` bytes per line.
    package func lines(maxLineBytes: Int) -> Decoded<String> {
        let limit = Swift.max(1, maxLineBytes)
        return Decoded { [self] in
            Decoded.AsyncIterator(
                ChunkDecoding(
                    chunks: makeAsyncIterator(), decoder: LineDecoder(splitter: LineSplitter(maxLineBytes: limit))))
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
    ) -> Decoded<T> {
        let lines = lines(maxLineBytes: maxLineBytes)
        let decoder = SharedJSONDecoder(decoder: decoder)
        return Decoded { [self] in
            let state = DecodingBox(
                JSONLinesState<T>(stream: self, lines: lines.makeAsyncIterator(), decoder: decoder.decoder))
            return Decoded.AsyncIterator { () async throws(APIClientError) -> T? in try await state.decoding.next() }
        }
    }
}

/// A `JSONDecoder` handed to the iterators of a ``HTTPBodyStream/jsonLines(decoding:decoder:maxLineBytes:)`` sequence.
///
/// `@unchecked`: `JSONDecoder` is not declared Sendable on every platform; it is only read (its `decode` is
/// thread-safe for a decoder nobody configures concurrently), and each iterator uses it from one task.
struct SharedJSONDecoder: @unchecked Sendable {
    let decoder: JSONDecoder
}

/// What a JSON Lines iterator holds: the lines, and whether a line failed to decode.
struct JSONLinesState<Value: Decodable> {
    let stream: HTTPBodyStream
    var lines: HTTPBodyStream.Decoded<String>.AsyncIterator
    let decoder: JSONDecoder
    var ended = false

    mutating func next() async throws(APIClientError) -> Value? {
        guard !ended else { return nil }
        while let line = try await lines.next() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let data = Data(line.utf8)
            do {
                return try decoder.decode(Value.self, from: data)
            } catch {
                ended = true
                stream.cancel()
                throw .parsingError(body: data, underlying: error)
            }
        }
        ended = true
        return nil
    }
}
