/// Botham's request interceptor: takes the request about to be sent and returns the one to send.
///
/// ```swift
/// struct JSONHeadersRequestInterceptor: BothamRequestInterceptor {
///     func intercept(request: HTTPRequest) -> HTTPRequest {
///         request.appendingHeaders(["Content-Type": "application/json", "Accept": "application/json"])
///     }
/// }
/// apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
/// ```
///
/// Interceptors run on every attempt, starting again from the original request, so credentials refreshed between
/// attempts are applied. They may suspend and may throw: a thrown error ends the call and nothing is sent. The
/// call's context is available as ``HTTPCallContext/current``.
public protocol BothamRequestInterceptor: Sendable {
    /// Returns the request to send instead of `request` (often a copy with headers added).
    func intercept(request: HTTPRequest) async throws -> HTTPRequest
}
