/// Botham's JSON headers: `Content-Type: application/json` and `Accept: application/json`.
///
/// ```swift
/// apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
/// ```
///
/// Unlike Botham's, a header the request already has is kept, so a call that uploads an image with its own
/// `Content-Type` is not mislabelled.
public struct JSONHeadersRequestInterceptor: BothamRequestInterceptor {
    /// Creates the interceptor.
    public init() {}

    /// Adds the JSON headers the request does not have yet.
    public func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        if !request.headers.contains(.contentType) { request = request.withHeader(.contentType, "application/json") }
        if !request.headers.contains(.accept) { request = request.withHeader(.accept, "application/json") }
        return request
    }
}
