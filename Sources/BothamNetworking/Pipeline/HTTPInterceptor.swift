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
///         let start = context.clock.now  // the call's clock: a test's virtual clock, or the system's
///         defer { print("\(request) took \(context.clock.now - start)") }
///         return try await next(request)
///     }
/// }
/// ```
///
/// Add one to a client with `apiClient.interceptors.append(...)` (or to every client with
/// ``BothamAPIClient/globalInterceptors``); local interceptors wrap the global ones. An interceptor that needs the
/// call as a whole (how many attempts it took, how it ended) also implements
/// ``callDidFinish(_:result:context:)``, which the client calls once per call: one object, one registration.
///
/// ## The request an interceptor is given
///
/// Each attempt runs the request interceptors (local, then global), then *prepares* their result once, and only then
/// calls the onion with it. So `request` is prepared (what a signer has to sign):
///
/// - `HTTPRequest.resolvedURL()` returns the URL that is sent — base endpoint, path and parameters joined and
///   percent-encoded — without resolving it again.
/// - A body in memory is already the bytes that go on the wire: ``HTTPRequest/bodyData()`` returns them, encoding
///   nothing (JSON, form and dictionary bodies are encoded).
/// - A file body (`upload(_:method:fromFile:...)`, ``HTTPBody/file(_:contentType:)``, a large multipart form)
///   stays a file, read while it is sent: ``HTTPBody/fileURL`` is set. Read the file yourself to hash it;
///   `bodyData()` would load it into memory, and refuses files over `HTTPBody.maximumFileSizeLoadedInMemory`.
/// - A streamed body (``HTTPBody/streamed`` is set) cannot be read without being used up.
/// - The headers are the caller's and the request interceptors', plus the `Content-Type` preparation set from the
///   body when there was none. The transport adds the framing headers: `Host` (from the URL: the host, and `:port`
///   unless it is the scheme's default), `Content-Length` or `Transfer-Encoding`, and `Connection`, and nothing
///   else: the fields a transport would add of its own (`User-Agent`, `Accept-Encoding`, …) are added at
///   preparation, and a request carrying `Authorization` or changed by an interceptor is never fetched in byte
///   ranges.
///
/// The interceptors after this one (later in the list, and the global ones) see what this one passes to `next`,
/// and may change it again; a changed request is prepared again before the transport sends it. A logger meant to
/// show a signed request exactly as sent belongs in ``BothamAPIClient/networkInterceptors``, which run innermost
/// whatever the order they are added in. Every attempt goes through the onion again, so a retried call is signed again on
/// each send. Redirects are followed inside the transport, after every interceptor. <doc:SigningRequests> builds a
/// signer on this.
///
/// Errors thrown here end the attempt: an ``APIClientError`` as it is, a `CancellationError` as
/// ``APIClientError/cancelled``, anything else as ``APIClientError/interceptorError(underlying:)``.
public protocol HTTPInterceptor: Sendable {
    /// Handles `request`, usually by calling `next` and returning (or replacing) its response.
    ///
    /// - Parameters:
    ///   - request: The attempt's request, prepared: its URL resolved, its body encoded, its `Content-Type` set
    ///     (see "The request an interceptor is given" above).
    ///   - context: The call's id and attempt, and its per-call values.
    ///   - next: The rest of the chain: the inner interceptors, then the transport.
    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse

    /// Told once when the call ends, after its last attempt and the client's validation: what a feature that sees
    /// the call as a whole needs (metrics, tracing). The default does nothing.
    ///
    /// - Parameters:
    ///   - request: The original request, as the caller made it.
    ///   - result: What the caller receives.
    ///   - context: The context of the last attempt: ``HTTPCallContext/attempt`` is how many attempts were made, and
    ///     the call's values (``HTTPCallValueKey``) are those its attempts left.
    ///
    /// It runs on the task that made the call, before the result is returned, for every interceptor of the call
    /// (``BothamAPIClient/interceptors``, then ``BothamAPIClient/networkInterceptors``, each local then global) in
    /// order, whether or not an attempt reached it: keep it short and non-blocking.
    func callDidFinish(_ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext)
}

extension HTTPInterceptor {
    /// Does nothing: most interceptors only see attempts.
    public func callDidFinish(
        _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
    ) {}
}

/// The rest of the chain after an interceptor: the next interceptors and then the transport.
///
/// Call it with the request to send on: the one you were given, or a changed copy (a header added, a signature).
/// The inner interceptors see exactly that request. A changed request is prepared again before the transport gets
/// it — its URL, method and headers checked, a new body encoded and its `Content-Type` set — and one that fails
/// preparation ends with ``APIClientError/invalidRequest(reason:)`` without being sent. Each call sends once more,
/// within the call's retry budget (``BothamAPIClient/Configuration/maxRetries``).
public struct HTTPInterceptorNext: Sendable {
    /// Where `next` leads: a caller's closure, or the client's own chain at the next position (no closure, so a
    /// call through the client allocates nothing per interceptor).
    private enum Destination: Sendable {
        case closure(@Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse)
        case chain(CallPipeline.OnionPosition)
    }

    private let destination: Destination

    /// Creates a `next` from a closure (useful for testing interceptors directly).
    public init(_ proceed: @escaping @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse) {
        destination = .closure(proceed)
    }

    /// The rest of a call's chain after one of its interceptors.
    init(_ position: CallPipeline.OnionPosition) {
        destination = .chain(position)
    }

    /// Sends `request` through the rest of the chain.
    public func callAsFunction(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        switch destination {
        case .closure(let proceed): try await proceed(request)
        case .chain(let position): try await position.proceed(request)
        }
    }
}
