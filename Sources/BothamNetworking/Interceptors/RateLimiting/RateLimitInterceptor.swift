import Foundation

/// Keeps a client within the rate limits its servers announce: it reads their budget headers and makes a call wait,
/// on the call's clock, before it would exceed them, instead of being throttled.
///
/// ```swift
/// apiClient.interceptors.append(RateLimitInterceptor())   // reads the server's budget headers, waits before a call would exceed them
/// ```
///
/// - Every response (any status) is read for the server's budget: the IETF `RateLimit` / `RateLimit-Policy` fields
///   (draft-08 and draft-07 forms, and the earlier `RateLimit-Limit`/`-Remaining`/`-Reset`), the common
///   `X-RateLimit-Remaining` / `X-RateLimit-Reset` (a reset over 10⁹ is a Unix time, as GitHub sends it) and OpenAI's
///   `x-ratelimit-remaining-requests` / `x-ratelimit-reset-requests`; the most restrictive wins, and what cannot be
///   read is ignored.
/// - Each call let through counts one request off the known budget; when none is left, calls wait until the reset
///   (``Wait/Reason/budgetSpent``). Once the reset has passed the budget is unknown again and calls go.
/// - A 429 or 503 that asks for a wait (`retry-after-ms`, `Retry-After`, a 429's `x-ratelimit-reset-*`) holds every
///   call to that budget back until then (``Wait/Reason/retryAfter``), the call's own retry included; a retry that
///   ``RetryPolicy`` already delayed that long does not wait again.
/// - Optionally, a client-side token bucket (`requestsPerSecond`, `burst`; ``Wait/Reason/tokenBucket``) and a limit
///   of calls in flight per budget (`maxConcurrentRequestsPerHost`; waiters served first come, first served;
///   ``Wait/Reason/concurrencyLimit``).
/// - A call that would wait longer than `maxWait` (default 60 s) fails at once, unsent, with the ``Wait`` as
///   ``APIClientError/interceptorError(underlying:)``.
///
/// Budgets are per origin (`https://api.github.com`) unless `budgetKey` says otherwise. Copies of the interceptor
/// share their budgets; two interceptors made separately do not. Waits run on the call's clock (a test's
/// `VirtualClock` too) and end with the call's cancellation. `onWait` is told of each wait before it starts, and
/// `LoggingInterceptor` reports how long a call waited. The article <doc:RateLimits> has the whole story.
public struct RateLimitInterceptor: HTTPInterceptor {
    /// A wait the interceptor makes a call do, told to `onWait` before it starts; also the error of a call that
    /// would wait longer than `maxWait`.
    public struct Wait: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why a call waits.
        public enum Reason: Sendable, Equatable {
            /// The server's budget is spent until its reset.
            case budgetSpent
            /// A 429 or 503 asked for this wait.
            case retryAfter
            /// The client-side token bucket has no token yet.
            case tokenBucket
            /// The budget's calls in flight are at the limit: the wait lasts until a slot is free (its `duration`
            /// is zero, as it is not known in advance).
            case concurrencyLimit
        }

        /// The budget's key (by default the origin, such as `https://api.github.com`).
        public let budget: String
        /// How long the call waits (or would have had to).
        public let duration: Duration
        /// Why.
        public let reason: Reason

        /// A wait of `duration` on `budget` for `reason`.
        package init(budget: String, duration: Duration, reason: Reason) {
            self.budget = budget
            self.duration = duration
            self.reason = reason
        }

        /// `rate limit of https://api.github.com: wait 30000.0 ms (budgetSpent)`.
        public var description: String {
            "rate limit of \(DebugText.printable(budget)): wait \(duration.millisecondsText()) (\(reason))"
        }
    }

    private let budgets: RateLimitBudgets
    private let limiter: ConcurrencyLimiter?
    private let maxWait: Duration?
    private let budgetKey: (@Sendable (HTTPRequest) -> String)?
    private let onWait: (@Sendable (Wait) -> Void)?

    /// Creates the interceptor; with no arguments it only follows what the servers announce.
    ///
    /// - Parameters:
    ///   - requestsPerSecond: A client-side token bucket per budget refilled at this rate; `nil` (the default), or
    ///     a rate that is not positive, for none.
    ///   - burst: How many calls the bucket lets go at once (1 to 1,000,000; values outside are clamped). A rate
    ///     below one call in 10⁹ s refills as if it were that.
    ///   - maxConcurrentRequestsPerHost: The most calls in flight per budget (at least 1); `nil` for no limit. A
    ///     call holds its slot until its response's head arrives (a streamed body does not hold it).
    ///   - maxWait: The longest a call may be made to wait at once; a call that would wait longer fails at once.
    ///     `nil` for no ceiling.
    ///   - budgetKey: The budget a request counts against; `nil` (the default) for its origin
    ///     (`scheme://host[:port]`).
    ///   - onWait: Told of every wait, before it starts (on the waiting call's task: keep it short).
    public init(
        requestsPerSecond: Double? = nil,
        burst: Int = 1,
        maxConcurrentRequestsPerHost: Int? = nil,
        maxWait: Duration? = .seconds(60),
        budgetKey: (@Sendable (HTTPRequest) -> String)? = nil,
        onWait: (@Sendable (RateLimitInterceptor.Wait) -> Void)? = nil
    ) {
        budgets = RateLimitBudgets(bucket: requestsPerSecond.flatMap { TokenBucket(rate: $0, capacity: burst) })
        limiter = maxConcurrentRequestsPerHost.map { ConcurrencyLimiter(limit: $0) }
        self.maxWait = maxWait
        self.budgetKey = budgetKey
        self.onWait = onWait
    }

    /// The budgets, shared by the copies of this interceptor.
    package var state: RateLimitBudgets { budgets }

    /// The limiter of calls in flight, when there is one.
    package var concurrencyLimiter: ConcurrencyLimiter? { limiter }

    /// Waits until the request's budget lets it go, sends it and reads the answer's budget.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let key = budgetKey?(request) ?? Self.origin(of: request)
        if let limiter {
            try await takeSlot(key, from: limiter, context: context)
        }
        defer { limiter?.release(key) }
        try await waitForBudget(key, context: context)
        do {
            let response = try await next(request)
            record(response, key: key, context: context)
            return response
        } catch {
            if case .httpResponseError(let response) = error { record(response, key: key, context: context) }
            throw error
        }
    }

    /// `scheme://host[:port]` of the request's URL (the port only when it is not the scheme's default).
    package static func origin(of request: HTTPRequest) -> String {
        guard let url = request.url else { return "" }
        guard let origin = Origin(url) else { return url.absoluteString }
        return "\(origin.scheme)://\(origin.hostHeader)"
    }

    /// Takes a slot of `key`, waiting in line for one when they are all taken.
    private func takeSlot(_ key: String, from limiter: ConcurrencyLimiter, context: HTTPCallContext) async throws {
        guard !limiter.tryAcquire(key) else { return }
        onWait?(Wait(budget: key, duration: .zero, reason: .concurrencyLimit))
        let start = context.clock.now
        try await limiter.acquire(key)
        addWait(context.clock.now - start, to: context)
    }

    /// Waits until the budget of `key` lets the call go, or throws the ``Wait`` that would be too long.
    private func waitForBudget(_ key: String, context: HTTPCallContext) async throws {
        var holdsToken = false
        while true {
            let now = context.clock.now
            switch budgets.admit(key, now: now, maxWait: maxWait, holdsToken: holdsToken) {
            case .go:
                return
            case .refuse(let duration, let reason):
                throw Wait(budget: key, duration: duration, reason: reason)
            case .wait(let until, let reason):
                holdsToken = holdsToken || reason == .tokenBucket
                onWait?(Wait(budget: key, duration: until - now, reason: reason))
                do {
                    try await context.clock.sleep(until: until, tolerance: nil)
                } catch {
                    if holdsToken { budgets.giveBackToken(key, now: context.clock.now) }
                    throw error
                }
                addWait(context.clock.now - now, to: context)
            }
        }
    }

    /// Reads the budget `response` announces, and the wait a 429 or 503 asks for.
    private func record(_ response: HTTPResponse, key: String, context: HTTPCallContext) {
        let date = context.clock.currentDate
        let reading = RateLimitHeaders.reading(in: response.headers, now: date)
        let block =
            response.statusCode == 429 || response.statusCode == 503 ? RetryHints.delay(in: response, now: date) : nil
        budgets.record(key, reading: reading, block: block, now: context.clock.now)
    }

    private func addWait(_ wait: Duration, to context: HTTPCallContext) {
        guard wait > .zero else { return }
        context.update(RateLimitCallWait.self) { $0 += wait }
    }
}
