import Foundation

extension HTTPBody {
    /// A request body produced while it is sent, from an `AsyncSequence` of byte chunks (``HTTPBody/stream(length:contentType:_:)``).
    ///
    /// Transports read it with ``makeChunks()``, one chunk at a time, as fast as the network takes them. A body made
    /// from a sequence can be read once: a second ``makeChunks()`` fails, so it is never retried and never sent again
    /// after a 307/308. A body made from a factory (``HTTPBody/stream(length:contentType:replayable:)``) makes a new
    /// sequence each time and can be retried like any other.
    ///
    /// `Sendable`: the factory is `@Sendable`, and the single-use flag is behind the `Lock`.
    public final class Stream: Sendable {
        /// The body's length in bytes, when known: sent as `Content-Length` (a sequence that yields another number of
        /// bytes fails the call); `nil` sends it with `Transfer-Encoding: chunked` where the transport can.
        public let length: Int?
        /// Whether the body can be produced again (it has a factory), so retries and 307/308 redirects may resend it.
        package let isReplayable: Bool
        private let factory: @Sendable () -> Chunks
        private let used = Lock(false)

        init(length: Int?, isReplayable: Bool, factory: @escaping @Sendable () -> Chunks) {
            self.length = length.map { Swift.max(0, $0) }
            self.isReplayable = isReplayable
            self.factory = factory
        }

        /// The chunks to send, for one attempt.
        ///
        /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the body was made from a sequence that has already
        ///   been handed out.
        public func makeChunks() throws(APIClientError) -> Chunks {
            let alreadyUsed = used.withLock { used in
                defer { used = true }
                return used
            }
            if alreadyUsed && !isReplayable {
                throw .invalidRequest(
                    reason: "the streamed request body was already sent and cannot be sent again; "
                        + "make it with HTTPBody.stream(length:contentType:replayable:) to allow retries")
            }
            return factory()
        }

        /// The chunks of one attempt: an iterator that a transport pulls from, one task at a time.
        ///
        /// `@unchecked Sendable`: it wraps the sequence's iterator, which need not be `Sendable`. Each ``makeChunks()``
        /// makes a new one, which a transport hands from the task that made it to the one task that reads it (native:
        /// its upload task; URLSession: the spooling loop), and `next()` is only called again after the previous call
        /// returned, so the iterator is never used from two tasks at once. Read it that way in a transport of your own.
        public final class Chunks: @unchecked Sendable {
            private let pull: () async throws -> Data?

            init<S: AsyncSequence>(_ sequence: S) where S.Element == Data {
                var iterator = sequence.makeAsyncIterator()
                pull = { try await iterator.next() }
            }

            /// The next chunk, or `nil` at the end.
            ///
            /// - Throws: ``APIClientError/httpClientError(underlying:)`` carrying the sequence's error.
            public func next() async throws(APIClientError) -> Data? {
                do {
                    return try await pull()
                } catch {
                    throw .httpClientError(underlying: error)
                }
            }
        }
    }
}

extension HTTPBody.Stream: Hashable {
    /// Bodies are equal only to themselves.
    public static func == (lhs: HTTPBody.Stream, rhs: HTTPBody.Stream) -> Bool { lhs === rhs }

    /// Hashes the body's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension HTTPBody {
    /// A body produced while it is sent, read once from `sequence`.
    ///
    /// ```swift
    /// let lines = AsyncStream<Data> { continuation in ... }
    /// let result = await apiClient.POST("/ingest", body: .stream(contentType: "application/x-ndjson", lines))
    /// ```
    ///
    /// With `length` it goes out with `Content-Length`, otherwise chunked (URLSession on Linux, which cannot read a
    /// stream safely, spools it to a temporary file first; memory stays bounded either way). It is never retried
    /// and never resent after a 307/308 (that ends the call with ``APIClientError/invalidRequest(reason:)``): use
    /// ``stream(length:contentType:replayable:)`` for a body that can be made again.
    public static func stream<S: AsyncSequence & Sendable>(
        length: Int? = nil, contentType: String? = nil, _ sequence: S
    ) -> HTTPBody where S.Element == Data {
        HTTPBody(
            storage: .stream(
                HTTPBody.Stream(length: length, isReplayable: false) { HTTPBody.Stream.Chunks(sequence) },
                contentType: contentType))
    }

    /// A body produced while it is sent, from a new sequence made by `makeSequence` for each attempt, so it can be
    /// retried and resent after a 307/308 like any other body.
    public static func stream<S: AsyncSequence & Sendable>(
        length: Int? = nil, contentType: String? = nil, replayable makeSequence: @escaping @Sendable () -> S
    ) -> HTTPBody where S.Element == Data {
        HTTPBody(
            storage: .stream(
                HTTPBody.Stream(length: length, isReplayable: true) { HTTPBody.Stream.Chunks(makeSequence()) },
                contentType: contentType))
    }

    /// The streamed body of a ``stream(length:contentType:_:)`` body, or `nil` for other bodies.
    public var streamed: HTTPBody.Stream? {
        guard case .stream(let body, _) = storage else { return nil }
        return body
    }

    /// Whether the body can be sent more than once (every body but one streamed from a sequence without a factory).
    package var isReplayable: Bool {
        streamed?.isReplayable ?? true
    }
}
