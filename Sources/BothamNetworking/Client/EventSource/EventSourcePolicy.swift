extension EventSource {
    /// How an ``EventSource`` reconnects.
    ///
    /// ```swift
    /// var policy = EventSource.Policy()
    /// policy.maxConsecutiveFailures = 3
    /// let events = apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy)
    /// ```
    ///
    /// After the connection drops or the stream ends, the source waits the reconnection time (the stream's last
    /// `retry:` field, else ``defaultReconnectionTime``) and connects again. When reconnections keep failing (no event
    /// arrives between them) the wait doubles each time, up to `maxReconnectionDelay`, with `jitter`; after
    /// ``maxConsecutiveFailures`` of them the sequence ends with the last error. The waits run on the client's
    /// ``BothamAPIClient/Configuration/clock`` (a test's virtual clock decides when they end).
    public struct Policy: Sendable {
        /// The reconnection time until the stream sets one with `retry:` (3 s, as browsers use).
        public var defaultReconnectionTime: Duration
        /// The longest wait between two reconnections (60 s).
        package var maxReconnectionDelay: Duration
        /// How many reconnections in a row may fail (no event between them) before the sequence ends with the last
        /// error (8). A failure is a network error or timeout, a status in `retryableStatusCodes`, or a stream that
        /// ended without an event.
        public var maxConsecutiveFailures: Int
        /// Statuses that are retried like network failures (408, 429, 500, 502, 503, 504). Any other status that is not
        /// 2xx ends the sequence with ``APIClientError/httpResponseError(_:)``; a `204 No Content` ends it normally.
        package var retryableStatusCodes: Set<Int>
        /// The randomness applied to the waits after repeated failures (±20 %); the first wait is exactly the
        /// reconnection time.
        package var jitter: RetryPolicy.Jitter
        /// Where jitter draws come from.
        package var random: RetryPolicy.Random
        /// The last event ID to start from (sent as `Last-Event-ID` on the first connection when not empty).
        package var lastEventID: String
        /// Waits in place of the call's clock: set only through the deprecated `sleeper` spelling.
        var sleep: (@Sendable (Duration) async throws -> Void)?

        /// Creates a policy; every value has a default.
        public init(
            defaultReconnectionTime: Duration = .seconds(3),
            maxReconnectionDelay: Duration = .seconds(60),
            maxConsecutiveFailures: Int = 8,
            retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
            jitter: RetryPolicy.Jitter = .proportional(0.2),
            random: RetryPolicy.Random = .system,
            lastEventID: String = ""
        ) {
            self.defaultReconnectionTime = defaultReconnectionTime
            self.maxReconnectionDelay = maxReconnectionDelay
            self.maxConsecutiveFailures = maxConsecutiveFailures
            self.retryableStatusCodes = retryableStatusCodes
            self.jitter = jitter
            self.random = random
            self.lastEventID = lastEventID
        }

        /// The wait before reconnecting after `failures` failures in a row (0 after a stream that delivered events).
        func delay(afterFailures failures: Int, reconnectionTime: Duration) -> Duration {
            guard failures > 1 else { return reconnectionTime }
            // Doubling from the server's reconnection time, capped: the retry backoff's rule.
            let backoff = RetryPolicy.Backoff(
                baseDelay: reconnectionTime, multiplier: 2, maxDelay: maxReconnectionDelay)
            let delay = backoff.delay(beforeRetry: failures)
            return Swift.min(maxReconnectionDelay, jitter.apply(to: delay, random: random()))
        }
    }
}
