import Dispatch

extension BothamAPIClient {
    /// A client's settings. Each call takes a snapshot when it starts.
    public struct Configuration: Sendable {
        /// How many times one call may be sent again (by ``ResponseInterceptorResult/retry`` or a retry policy)
        /// before it ends with ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)``. Default 3, so at most
        /// 4 attempts; negative values count as 0.
        public var maxRetries: Int
        /// Which responses are successes. Default: 2xx.
        public var validation: ResponseValidation
        /// Where completion handlers run. `nil` (the default) calls them on the task that finished the call, a
        /// thread of Swift's cooperative pool; pass `.main` for UI code on Apple platforms.
        public var completionQueue: DispatchQueue?
        /// Decides which failed attempts are retried and after what delay; `nil` (the default) retries only when a
        /// response interceptor returns ``ResponseInterceptorResult/retry``.
        public var retrier: (any RequestRetrier)?
        /// The clock of everything time-based in a call (see ``HTTPClock``): the waits between attempts, the
        /// ``callTimeout``, stream deadlines, ``EventSource`` reconnection delays, and every interceptor that reads
        /// `HTTPCallContext.clock` (cache freshness, cookie expiry, the token refresh limit, `Retry-After`
        /// dates, logged and measured durations). Each call takes it from the snapshot of the configuration it
        /// starts with. Default `SystemClock`; tests give `BothamNetworkingTesting`'s `VirtualClock` and advance
        /// it, so nothing sleeps for real.
        public var clock: any HTTPClock
        /// The observers of the deprecated `callObservers`, told once about every call when it ends, in order.
        var legacyCallObservers: [LegacyCallObserver] = []
        /// The most one whole call may take: every attempt, every redirect and every wait between retries; for a
        /// streamed call (``BothamAPIClient/stream(_:callTimeout:)`` without its own `callTimeout`), until its body ends. When
        /// it runs out the call is cancelled and ends with ``APIClientError/timeout``. Default `nil`: no limit
        /// beyond each attempt's own (the transport's `TransportLimits` and ``HTTPRequest/timeout``).
        public var callTimeout: Duration?

        /// Creates a configuration.
        public init(
            maxRetries: Int = 3,
            validation: ResponseValidation = .successfulStatusCodes,
            completionQueue: DispatchQueue? = nil,
            retrier: (any RequestRetrier)? = nil,
            clock: any HTTPClock = .system,
            callTimeout: Duration? = nil
        ) {
            self.callTimeout = callTimeout
            self.retrier = retrier
            self.clock = clock
            self.maxRetries = maxRetries
            self.validation = validation
            self.completionQueue = completionQueue
        }
    }
}

extension BothamAPIClient.Configuration {
    /// What the pipeline needs of this configuration for one call.
    var callSettings: CallSettings {
        CallSettings(
            maxRetries: maxRetries,
            validation: validation,
            retrier: retrier,
            clock: clock,
            callObservers: legacyCallObservers,
            callTimeout: callTimeout
        )
    }
}
