import Dispatch

/// The facade: one client per web service, built from the service's base endpoint.
///
/// ```swift
/// let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com/repos/Karumi/BothamNetworking")
/// let result = await apiClient.GET("/issues", parameters: ["state": "open"])
/// switch result {
/// case .success(let response): print(response.statusCode, response.body.count)
/// case .failure(let error): print(error)
/// }
/// ```
///
/// Every call goes through the request interceptors (local, then global), preparation, the `HTTPInterceptor` onion
/// (``interceptors``, then the network interceptors innermost, once per send), the transport, the response
/// interceptors (local, then global) and the client's validation, and returns a `Result<HTTPResponse,
/// APIClientError>`; it never throws and never traps on bad input.
public final class BothamAPIClient: Sendable {
    /// The base endpoint paths are resolved against.
    public let baseEndpoint: String
    /// The transport.
    public let httpClient: any HTTPClient
    /// The transport's own header fields, when it declares them (our transports do): added at preparation so every
    /// interceptor sees them. Looked up once, here, rather than per request.
    let transportFields: (any TransportHeaderDefaults)?

    /// Request interceptors of this client; they run before the global ones.
    public let requestInterceptors: InterceptorList<any BothamRequestInterceptor>
    /// Response interceptors of this client; they run before the global ones.
    public let responseInterceptors: InterceptorList<any BothamResponseInterceptor>
    /// Onion interceptors of this client; they wrap the global ones.
    public let interceptors: InterceptorList<any HTTPInterceptor>
    /// Network interceptors of this client: onion interceptors that run innermost, after every other
    /// ``HTTPInterceptor`` and after preparation, once per send; they wrap the global ones.
    ///
    /// Each sees the request exactly as the transport sends it, header for header (the resolved URL, the encoded
    /// body or file body, every header field including the transport's own; only `Host`, `Content-Length`,
    /// `Transfer-Encoding` and `Connection` are added while sending), and the response as the transport returned
    /// it. That makes it the place for a logger that must show the signed request whatever order interceptors were
    /// added in:
    ///
    /// ```swift
    /// apiClient.interceptors.append(signer)
    /// apiClient.networkInterceptors.append(LoggingInterceptor(detail: .headers))  // logs the signature (redacted)
    /// ```
    ///
    /// A retry (``ResponseInterceptorResult/retry``, the retrier, or an ``interceptors`` entry calling `next` again)
    /// runs them again; a redirect the transport follows does not (it happens inside one send). A request one of
    /// them changes is prepared again before it is sent.
    public let networkInterceptors: InterceptorList<any HTTPInterceptor>

    /// Request interceptors for every client in the process.
    public static let globalRequestInterceptors = InterceptorList<any BothamRequestInterceptor>()
    /// Response interceptors for every client in the process.
    public static let globalResponseInterceptors = InterceptorList<any BothamResponseInterceptor>()
    /// Onion interceptors for every client in the process.
    public static let globalInterceptors = InterceptorList<any HTTPInterceptor>()
    /// Network interceptors for every client in the process: innermost, after every client's own
    /// ``networkInterceptors``.
    package static let globalNetworkInterceptors = InterceptorList<any HTTPInterceptor>()

    private let state: Lock<State>

    /// The client's settings. Changing them affects calls that start afterwards.
    public var configuration: Configuration {
        get { state.withLock { $0.configuration } }
        set {
            let stale = state.withLock { state in
                state.configuration = newValue
                return state.takePipeline()
            }
            _ = stale  // released here, outside the lock: an interceptor's `deinit` may use the client
        }
    }

    /// Creates a client for the service at `baseEndpoint`.
    ///
    /// - Parameters:
    ///   - baseEndpoint: An absolute `http` or `https` URL, for example `https://api.github.com`. A malformed one is
    ///     reported by every call as ``APIClientError/invalidRequest(reason:)`` (or
    ///     ``APIClientError/unsupportedURLScheme(_:)``), never by a crash.
    ///   - httpClient: The transport; by default a ``URLSessionHTTPClient``.
    ///   - configuration: Retry budget, validation and completion delivery.
    public init(
        baseEndpoint: String,
        httpClient: any HTTPClient = URLSessionHTTPClient(),
        configuration: Configuration = Configuration()
    ) {
        self.baseEndpoint = baseEndpoint
        self.httpClient = httpClient
        transportFields = httpClient as? any TransportHeaderDefaults
        let state = Lock(State(configuration: configuration))
        self.state = state
        // A change to one of the client's own lists drops its snapshot (released outside the lock), so the next call
        // takes a new one and a removed interceptor is not kept alive by the client.
        let dropSnapshot: @Sendable () -> Void = { _ = state.withLock { $0.takePipeline() } }
        requestInterceptors = InterceptorList(onChange: dropSnapshot)
        responseInterceptors = InterceptorList(onChange: dropSnapshot)
        interceptors = InterceptorList(onChange: dropSnapshot)
        networkInterceptors = InterceptorList(onChange: dropSnapshot)
    }

    /// Sends a request through every interceptor and the transport.
    public func send(_ request: HTTPRequest) async -> Result<HTTPResponse, APIClientError> {
        await callStart().pipeline.run(request)
    }

    /// Sends a request and returns its response, throwing ``APIClientError`` on failure.
    public func response(for request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await send(request).get()
    }

    /// A request for this client's base endpoint.
    public func request(
        _ method: HTTPMethod,
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) -> HTTPRequest {
        HTTPRequest(
            method: method,
            baseEndpoint: baseEndpoint,
            path: path,
            parameters: parameters,
            headers: headers,
            body: body
        )
    }

    /// What the client keeps behind its lock: its configuration, and the pipeline its calls run while neither the
    /// configuration nor any interceptor list changes.
    private struct State {
        var configuration: Configuration
        /// The pipeline built from `configuration`, the client's lists and the global lists as they were after
        /// `listChanges` changes (``InterceptorListChanges``); `nil` once the configuration or a list of the client's
        /// changed, until the next call.
        var pipeline: CallPipeline?
        var listChanges: UInt64 = 0

        /// The pipeline, which the caller releases once the lock is released (an interceptor's `deinit` may use the
        /// client); the next call builds a new one.
        mutating func takePipeline() -> CallPipeline? {
            defer { pipeline = nil }
            return pipeline
        }
    }

    /// The pipeline a call starting now runs, and the completion queue of the same configuration snapshot: a
    /// snapshot of the configuration and of every interceptor list, as ``makePipeline(_:)`` takes it. Calls share it
    /// (it is immutable) until the configuration or any list changes, so a call takes two locks for it, not nine. A
    /// global list's change is seen by its count; a removed global interceptor stays in a client's snapshot until the
    /// client's next call.
    func callStart() -> (pipeline: CallPipeline, completionQueue: DispatchQueue?) {
        let listChanges = InterceptorListChanges.current
        var stale: CallPipeline?
        defer { _ = stale }  // released after the lock (see `State.takePipeline()`)
        return state.withLock { state in
            // A snapshot counted at or after this call's count saw every change that happened before the call.
            if let pipeline = state.pipeline, state.listChanges >= listChanges {
                return (pipeline, state.configuration.completionQueue)
            }
            stale = state.takePipeline()
            let pipeline = makePipeline(state.configuration)
            state.pipeline = pipeline
            state.listChanges = Swift.max(state.listChanges, listChanges)
            return (pipeline, state.configuration.completionQueue)
        }
    }

    /// A pipeline holding the call settings of `configuration` (one snapshot of the client's) and one snapshot of
    /// every interceptor list.
    func makePipeline(_ configuration: Configuration) -> CallPipeline {
        CallPipeline(
            requestInterceptors: InterceptorSnapshot(requestInterceptors, then: Self.globalRequestInterceptors),
            responseInterceptors: InterceptorSnapshot(responseInterceptors, then: Self.globalResponseInterceptors),
            interceptors: InterceptorSnapshot(interceptors, then: Self.globalInterceptors),
            networkInterceptors: InterceptorSnapshot(networkInterceptors, then: Self.globalNetworkInterceptors),
            transport: httpClient,
            transportFields: transportFields,
            settings: configuration.callSettings
        )
    }
}
