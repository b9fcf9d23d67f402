import Foundation

/// A response body that arrives while you read it: an `AsyncSequence` of byte chunks with real back-pressure.
///
/// Get one from ``BothamAPIClient/stream(_:callTimeout:)`` (or the verb forms) and read it with `for try await`:
///
/// ```swift
/// let response = try await apiClient.stream(.get, "/exports/orders.ndjson")
/// for try await chunk in response.body {
///     process(chunk)            // the transport reads more only as fast as this loop asks for it
/// }
/// ```
///
/// The transport keeps at most about ``defaultBufferLimit`` bytes waiting (256 KiB by default, plus at most one read of the
/// transport); when the buffer is full it stops reading the socket, so a slow consumer slows the server down
/// instead of filling memory. Leaving the loop early, cancelling the reading task, calling ``cancel()`` or
/// releasing the stream ends the request at once and frees its connection. Failures after the head (the connection
/// dropped, the idle timeout between chunks ran out) end the loop with an ``APIClientError``.
///
/// A stream is read once, by one task at a time. ``lines``, ``jsonLines(decoding:decoder:maxLineBytes:)`` and ``events`` read it
/// as text lines, JSON Lines / NDJSON values and Server-Sent Events.
public final class HTTPBodyStream: AsyncSequence, Sendable {

    /// The default bound on buffered, unread bytes.
    public static let defaultBufferLimit = 256 * 1024

    let state: BodyStreamState

    init(state: BodyStreamState) {
        self.state = state
    }

    deinit {
        // Nobody can read it any more: end the request (a no-op when the body has been read to the end).
        state.cancel(with: .cancelled)
    }

    /// The most unread bytes the producer buffers before it pauses.
    package var bufferLimit: Int { state.bufferLimit }

    /// Creates a stream and the continuation its producer writes to (for transports and test doubles).
    ///
    /// ```swift
    /// let (stream, continuation) = HTTPBodyStream.makeStream(
    ///     onDemand: { socket.resumeReading() },   // the buffer drained after `yield` answered `.pause`
    ///     onCancel: { socket.close() }             // the consumer is gone
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - bufferLimit: Unread bytes at which ``Continuation/yield(_:)`` answers ``YieldResult/pause``.
    ///   - onDemand: Called (on the consumer's task) when the buffer has drained to a quarter of the limit after a
    ///     pause.
    ///   - onCancel: Called once when the consumer goes away before the stream ended.
    ///   - clock: What the body's `Summary.duration` is measured on: the system clock (a transport's real time)
    ///     by default; a test double gives the call's clock (`HTTPCallContext.clock`).
    public static func makeStream(
        bufferLimit: Int = defaultBufferLimit,
        onDemand: (@Sendable () -> Void)? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        clock: any HTTPClock = .system
    ) -> (stream: HTTPBodyStream, continuation: Continuation) {
        let state = BodyStreamState(bufferLimit: bufferLimit, onDemand: onDemand, onCancel: onCancel, clock: clock)
        return (HTTPBodyStream(state: state), Continuation(state: state))
    }

    /// A stream of `data` in one chunk, already complete (what a transport that does not stream gives).
    package convenience init(data: Data) {
        self.init(chunks: data.isEmpty ? [] : [data])
    }

    /// A stream of `chunks`, already complete.
    package convenience init(chunks: [Data]) {
        let total = chunks.reduce(0) { $0 + $1.count }
        let state = BodyStreamState(bufferLimit: Swift.max(total + 1, 1), onDemand: nil, onCancel: nil)
        let continuation = Continuation(state: state)
        for chunk in chunks { _ = continuation.yield(chunk) }
        continuation.finish()
        self.init(state: state)
    }

    /// How a stream's reading ended.
    public struct Summary: Sendable {
        /// The body bytes the consumer received.
        public var bytes: Int
        /// The error that ended it (``APIClientError/cancelled`` when the consumer went away early), or `nil` when
        /// the body was read to its end.
        public var error: APIClientError?
        /// From the head's arrival to the end.
        package var duration: Duration

        /// Creates a summary.
        package init(bytes: Int, error: APIClientError?, duration: Duration) {
            self.bytes = bytes
            self.error = error
            self.duration = duration
        }

    }

    /// Calls `observer` once, when the reader has read the body to its end, failed, or gone away (at once if that
    /// already happened). Logging and metrics use it to report a stream when it is over, without buffering it.
    public func onEnd(_ observer: @escaping @Sendable (Summary) -> Void) {
        state.onEnd(observer)
    }

    /// Ends the stream now: the request is cancelled and its connection closed (unless the body was complete).
    public func cancel() {
        state.cancel(with: .cancelled)
    }

    /// Reads the rest of the body into memory.
    ///
    /// - Parameter limit: The most bytes to collect; more fails with `networkError` of kind `responseTooLarge`
    ///   (and ends the request).
    public func collect(upTo limit: Int = 64 << 20) async throws(APIClientError) -> Data {
        var data = Data()
        var iterator = makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard chunk.count <= limit - data.count else {
                cancel()
                throw .networkError(
                    APIClientError.NetworkFailure(
                        kind: .responseTooLarge, underlying: HTTPBodyStream.DecodingError.bodyTooLarge(limit: limit)))
            }
            data.append(chunk)
        }
        return data
    }

    /// Starts reading the stream.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    /// Reads chunks one after another.
    public struct AsyncIterator: AsyncIteratorProtocol {

        // Holding the stream keeps it alive (its release cancels the request) while the iterator is in use.
        let stream: HTTPBodyStream

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws(APIClientError) -> Data? {
            try await stream.state.next().get()
        }
    }
}

extension HTTPBodyStream: Hashable {
    /// Streams are equal only to themselves.
    public static func == (lhs: HTTPBodyStream, rhs: HTTPBodyStream) -> Bool { lhs === rhs }

    /// Hashes the stream's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
