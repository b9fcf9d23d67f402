/// The one primitive every interceptor is built on: it gets the request, the call's context and `next`.
///
/// An interceptor may call `next` zero times (answer from a cache, short-circuit), once (modify, log, time) or more
/// than once (retry, refresh credentials). Interceptors are folded around the transport, so the first one in the
/// list is the outermost. Botham's request and response interceptors are adapted onto this shape by the client.
///
/// ```swift
/// struct TimingInterceptor: HTTPInterceptor {
///     func intercept(
///         _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
///     ) async throws -> HTTPResponse {
///         let start = ContinuousClock.now
///         defer { print("\(request) took \(ContinuousClock.now - start)") }
///         return try await next(request)
///     }
/// }
/// ```
///
/// Errors thrown here end the attempt: an ``APIClientError`` as it is, a `CancellationError` as
/// ``APIClientError/cancelled``, anything else as ``APIClientError/interceptorError(underlying:)``.
public protocol HTTPInterceptor: Sendable {
    /// Handles `request`, usually by calling `next` and returning (or replacing) its response.
    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
}

/// The rest of the chain after an interceptor: the next interceptors and then the transport.
public struct HTTPInterceptorNext: Sendable {
    let proceed: @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse

    /// Creates a `next` from a closure (useful for testing interceptors directly).
    public init(_ proceed: @escaping @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse) {
        self.proceed = proceed
    }

    /// Sends `request` through the rest of the chain.
    public func callAsFunction(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await proceed(request)
    }
}
