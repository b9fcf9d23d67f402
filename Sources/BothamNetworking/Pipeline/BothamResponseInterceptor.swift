/// What a response interceptor decided.
public enum ResponseInterceptorResult: Sendable {
    /// Go on with this response (the same one, or a replacement).
    case proceed(HTTPResponse)
    /// Send the original request again, through every request interceptor, within the call's retry budget.
    case retry
    /// End the call with this error.
    case fail(APIClientError)
}

/// Botham's response interceptor, now given the request too and able to see transport errors.
///
/// ```swift
/// struct RetryOnUnauthorized: BothamResponseInterceptor {
///     func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
///         response.statusCode == 401 ? .retry : .proceed(response)
///     }
/// }
/// ```
///
/// Response interceptors run before the client's validation, so they see 4xx and 5xx responses. Returning
/// ``ResponseInterceptorResult/retry`` spends one unit of the call's retry budget; when it is spent the call ends
/// with ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)``. The attempt number is in
/// ``HTTPCallContext/current``.
public protocol BothamResponseInterceptor: Sendable {
    /// Decides what to do with a response.
    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult

    /// Decides what to do with a failed attempt. The default passes the error on.
    func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult
}

extension BothamResponseInterceptor {
    /// Passes the error on unchanged.
    public func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        .fail(error)
    }
}
