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
/// - the method is idempotent (``HTTPMethod/isIdempotent``), or ``retriesNonIdempotentMethods`` is on;
/// - `additionalCondition` (if any) agrees.
///
/// Cancellation is never retried. The number of retries is not the policy's business: the client's
/// ``BothamAPIClient/Configuration/maxRetries`` is the single budget per call, shared with response interceptors
/// that return ``ResponseInterceptorResult/retry``; when it is spent the call ends with
/// ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)``.
///
/// The delay before retry *n* is `backoff` (`baseDelay × multiplier^(n−1)`, at most `maxDelay`) randomised by
/// `jitter` with `random`. When the response carries `Retry-After` (seconds or an HTTP-date, read against the
/// call's clock) and `honorsRetryAfter` is on, that delay is used instead, without jitter,
/// capped at `retryAfterLimit` (default: the backoff's `maxDelay`). The client waits it out on the same clock.
public struct RetryPolicy: Sendable {
    /// The statuses Alamofire and Ktor retry by default, plus 429: 408, 429, 500, 502, 503, 504.
    package static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Failures where the request most likely never reached the server or the connection broke:
    /// `cannotConnect`, `connectionLost`, `cannotFindHost`.
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
    /// The longest `Retry-After` delay obeyed; longer ones are cut to this. `nil` (the default) uses
    /// ``RetryPolicy/Backoff/maxDelay``.
    package var retryAfterLimit: Duration?
    /// An extra condition every retry must pass, given the outcome and the request; `nil` (the default) adds none.
    package var additionalCondition: (@Sendable (Result<HTTPResponse, APIClientError>, HTTPRequest) -> Bool)?

    /// Creates a policy; every argument has a sensible default.
    public init(
        backoff: RetryPolicy.Backoff = RetryPolicy.Backoff(),
        jitter: RetryPolicy.Jitter = .full,
        random: RetryPolicy.Random = .system,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableNetworkFailures: Set<APIClientError.NetworkFailure.Kind> = [
            .cannotConnect, .connectionLost, .cannotFindHost,
        ],
        retriesTimeouts: Bool = true,
        retriesNonIdempotentMethods: Bool = false,
        honorsRetryAfter: Bool = true,
        retryAfterLimit: Duration? = nil,
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
    package func shouldRetry(_ outcome: Result<HTTPResponse, APIClientError>, request: HTTPRequest) -> Bool {
        guard request.method.isIdempotent || retriesNonIdempotentMethods else { return false }
        guard isRetryable(outcome) else { return false }
        return additionalCondition?(outcome, request) ?? true
    }

    /// The delay before the retry that follows attempt `attempt` (1-based) which ended with `outcome`, when the
    /// time is `now` (what a `Retry-After` HTTP-date is measured from; the client passes its clock's
    /// ``HTTPClock/currentDate``).
    package func delay(
        afterAttempt attempt: Int, outcome: Result<HTTPResponse, APIClientError>, now: Date
    ) -> Duration {
        let limit = max(.zero, retryAfterLimit ?? backoff.maxDelay)
        if honorsRetryAfter, let response = Self.response(of: outcome),
            let value = response.headers[.retryAfter],
            let requested = RetryAfter.delay(from: value, now: now)
        {
            return min(requested, limit)
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
    /// `shouldRetry` says so; never retries a cancelled call.
    public func decision(
        for outcome: Result<HTTPResponse, APIClientError>,
        request: HTTPRequest,
        context: HTTPCallContext
    ) async -> RetryDecision {
        if case .failure(.cancelled) = outcome { return .doNotRetry }
        guard shouldRetry(outcome, request: request) else { return .doNotRetry }
        return .retry(after: delay(afterAttempt: context.attempt, outcome: outcome, now: context.clock.currentDate))
    }
}
