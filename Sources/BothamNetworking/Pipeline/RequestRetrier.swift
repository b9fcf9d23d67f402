/// What a ``RequestRetrier`` decided about one attempt's outcome.
public enum RetryDecision: Sendable, Hashable {
    /// Return the outcome to the caller.
    case doNotRetry
    /// Send the original request again after `delay`, within the call's retry budget.
    case retry(after: Duration)
}

/// Decides whether a finished attempt should be sent again, and when.
///
/// The client's retry loop consults its retrier (``BothamAPIClient/Configuration/retrier``) after the
/// response interceptors and before validation. Retries it asks for share the call's one budget
/// (``BothamAPIClient/Configuration/maxRetries``) with ``ResponseInterceptorResult/retry``; when the budget is
/// spent the call ends with ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)``. Cancelled calls are never
/// retried, whatever the retrier says.
///
/// ``RetryPolicy`` is the retrier we ship (backoff, jitter, `Retry-After`); write your own for other rules.
public protocol RequestRetrier: Sendable {
    /// The decision for `outcome`, produced by `request` (as sent) on the attempt described by `context`.
    func decision(
        for outcome: Result<HTTPResponse, APIClientError>,
        request: HTTPRequest,
        context: HTTPCallContext
    ) async -> RetryDecision
}
