import Foundation

/// The shipped ``RequestRetrier``: retries transient failures with exponential backoff and jitter, and honours
/// `Retry-After`.
///
/// ```swift
/// apiClient.configuration.retrier = RetryPolicy()
/// apiClient.configuration.maxRetries = 2          // the call's one retry budget
/// ```
///
/// An attempt is retried when all of these hold:
/// - it ended with a status in ``retryableStatusCodes`` (default 408, 429, 500, 502, 503, 504), a
///   ``APIClientError/networkError(_:)`` whose kind is in `retryableNetworkFailures` (default `cannotConnect`,
///   `connectionLost`, `cannotFindHost`), or ``APIClientError/timeout`` when `retriesTimeouts` is on;
/// - the method is idempotent (``HTTPMethod/isIdempotent``), or it is `POST` or `PATCH` and the request carries an
///   `Idempotency-Key` (its own, or the call's from ``IdempotencyKeyInterceptor``, the same on every attempt), or
///   ``retriesNonIdempotentMethods`` is on;
/// - `additionalCondition` (if any) agrees.
///
/// Cancellation is never retried. The number of retries is not the policy's business: the client's
/// ``BothamAPIClient/Configuration/maxRetries`` is the single budget per call, shared with response interceptors
/// that return ``ResponseInterceptorResult/retry``; when it is spent the call ends with
/// ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)``.
///
/// The delay before retry *n* is `backoff` (`baseDelay × multiplier^(n−1)`, at most `maxDelay`) randomised by
/// `jitter` with `random`. When the response asks for a wait and `honorsRetryAfter` is on, that wait is used instead,
/// without jitter, even when it is longer than `maxDelay`. The first of these present wins:
/// 1. `retry-after-ms` (milliseconds, as OpenAI-style APIs send it);
/// 2. `Retry-After` (seconds or an HTTP-date, read against the call's clock);
/// 3. on a 429 only, `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens` (OpenAI's durations such as `6m0s`,
///    `1.5s`, `20ms`): the one whose `x-ratelimit-remaining-*` is `0`, or the longer.
///
/// A wait longer than `retryAfterLimit` (default 60 s; `nil` for no ceiling) is not cut short, which would spend a
/// retry where it must fail again: the call fails at once with the response that asked for it (as
/// ``APIClientError/httpResponseError(_:)``, so ``APIClientError/statusCode`` is its 429 or 503 and its headers say
/// how long to wait). The client waits out the delays on the same clock.
public struct RetryPolicy: Sendable {
    /// The statuses Alamofire and Ktor retry by default, plus 429: 408, 429, 500, 502, 503, 504.
    @usableFromInline
    package static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Failures where the request most likely never reached the server or the connection broke:
    /// `cannotConnect`, `connectionLost`, `cannotFindHost`.
    @usableFromInline
    package static let defaultRetryableNetworkFailures: Set<APIClientError.NetworkFailure.Kind> = [
        .cannotConnect, .connectionLost, .cannotFindHost,
    ]

    /// The exponential backoff.
    package var backoff: RetryPolicy.Backoff
    /// How the backoff delay is randomised. Default ``RetryPolicy/Jitter/full``.
    package var jitter: RetryPolicy.Jitter
    /// Where jitter's random numbers come from. Default ``RetryPolicy/Random/system``.
    package var random: RetryPolicy.Random
    /// Response statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// Network failure kinds that are retried.
    package var retryableNetworkFailures: Set<APIClientError.NetworkFailure.Kind>
    /// Whether ``APIClientError/timeout`` is retried. Default `true`.
    package var retriesTimeouts: Bool
    /// Whether `POST`, `PATCH` and other non-idempotent methods are retried too. Default `false`: repeating them
    /// may repeat their effect.
    public var retriesNonIdempotentMethods: Bool
    /// Whether `Retry-After` replaces the backoff delay. Default `true`.
    package var honorsRetryAfter: Bool
    /// The longest wait a response may ask for (`retry-after-ms`, `Retry-After`, rate-limit reset) and still be
    /// retried; a response that asks for longer ends the call at once. `nil` is no ceiling. Default 60 s.
    package var retryAfterLimit: Duration?
    /// An extra condition every retry must pass, given the outcome and the request; `nil` (the default) adds none.
    package var additionalCondition: (@Sendable (Result<HTTPResponse, APIClientError>, HTTPRequest) -> Bool)?

    /// Creates a policy; every argument has a sensible default.
    public init(
        backoff: RetryPolicy.Backoff = RetryPolicy.Backoff(),
        jitter: RetryPolicy.Jitter = .full,
        random: RetryPolicy.Random = .system,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        retryableNetworkFailures: Set<APIClientError.NetworkFailure.Kind> = RetryPolicy.defaultRetryableNetworkFailures,
        retriesTimeouts: Bool = true,
        retriesNonIdempotentMethods: Bool = false,
        honorsRetryAfter: Bool = true,
        retryAfterLimit: Duration? = .seconds(60),
        additionalCondition: (@Sendable (Result<HTTPResponse, APIClientError>, HTTPRequest) -> Bool)? = nil
    ) {
        self.backoff = backoff
        self.jitter = jitter
        self.random = random
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableNetworkFailures = retryableNetworkFailures
        self.retriesTimeouts = retriesTimeouts
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
        self.honorsRetryAfter = honorsRetryAfter
        self.retryAfterLimit = retryAfterLimit
        self.additionalCondition = additionalCondition
    }

    /// Whether `outcome` of `request` should be retried (ignoring the budget, which the client owns).
    package func shouldRetry(
        _ outcome: Result<HTTPResponse, APIClientError>, request: HTTPRequest, hasIdempotencyKey: Bool = false
    ) -> Bool {
        let keyed = hasIdempotencyKey || request.headers.contains(.idempotencyKey)
        let repeatable = request.method.isIdempotent || (keyed && (request.method == .post || request.method == .patch))
        guard repeatable || retriesNonIdempotentMethods else { return false }
        guard isRetryable(outcome) else { return false }
        return additionalCondition?(outcome, request) ?? true
    }

    /// The delay before the retry that follows attempt `attempt` (1-based) which ended with `outcome`, when the
    /// time is `now` (what a `Retry-After` HTTP-date is measured from; the client passes its clock's
    /// ``HTTPClock/currentDate``); `nil` when the response asks for a wait longer than `retryAfterLimit`.
    package func delay(
        afterAttempt attempt: Int, outcome: Result<HTTPResponse, APIClientError>, now: Date
    ) -> Duration? {
        if honorsRetryAfter, let response = Self.response(of: outcome),
            let requested = RetryHints.delay(in: response, now: now)
        {
            if let retryAfterLimit, requested > max(.zero, retryAfterLimit) { return nil }
            return requested
        }
        let jittered = jitter.apply(to: backoff.delay(beforeRetry: attempt), random: random())
        return min(max(.zero, jittered), max(.zero, backoff.maxDelay))
    }

    private func isRetryable(_ outcome: Result<HTTPResponse, APIClientError>) -> Bool {
        switch outcome {
        case .success(let response):
            return retryableStatusCodes.contains(response.statusCode)
        case .failure(.httpResponseError(let response)):
            return retryableStatusCodes.contains(response.statusCode)
        case .failure(.networkError(let failure)):
            return retryableNetworkFailures.contains(failure.kind)
        case .failure(.timeout):
            return retriesTimeouts
        case .failure:
            return false
        }
    }

    private static func response(of outcome: Result<HTTPResponse, APIClientError>) -> HTTPResponse? {
        switch outcome {
        case .success(let response), .failure(.httpResponseError(let response)): return response
        case .failure: return nil
        }
    }
}

extension RetryPolicy: RequestRetrier {
    /// Retries after `delay` (at the call clock's ``HTTPClock/currentDate``) when
    /// `shouldRetry` says so and the response asks for no wait beyond the ceiling; never retries a cancelled call.
    public func decision(
        for outcome: Result<HTTPResponse, APIClientError>,
        request: HTTPRequest,
        context: HTTPCallContext
    ) async -> RetryDecision {
        if case .failure(.cancelled) = outcome { return .doNotRetry }
        let keyed = context[IdempotencyCallKey.self] != nil
        guard shouldRetry(outcome, request: request, hasIdempotencyKey: keyed),
            let delay = delay(afterAttempt: context.attempt, outcome: outcome, now: context.clock.currentDate)
        else { return .doNotRetry }
        return .retry(after: delay)
    }
}
