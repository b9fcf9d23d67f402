import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession` (FoundationNetworking on Linux), with the Linux bugs designed
/// around.
///
/// ```swift
/// let apiClient = BothamAPIClient(
///     baseEndpoint: "https://api.github.com",
///     httpClient: URLSessionHTTPClient(
///         configuration: .init(redirectPolicy: .followAtMost(5), limits: TransportLimits(maxResponseBytes: 1 << 20))
///     )
/// )
/// ```
///
/// What it guarantees, on Linux as on Apple platforms:
/// - Redirects follow ``Configuration/redirectPolicy``. A redirect to another scheme, host or port never carries
///   `Authorization`, `Proxy-Authorization` or `Cookie`; a 307/308 keeps its method and its body; a loop or a chain
///   longer than the policy allows ends with `.networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects))`.
/// - A 401 (or 407) asking for credentials comes back at once as a response; the transport never answers
///   authentication challenges (use an interceptor).
/// - ``Configuration/limits`` mean what they mean on `NativeHTTPClient` (``TransportLimits``): the idle timeout, the
///   attempt's limit (``HTTPRequest/timeout`` or ``TransportLimits/attemptTimeout``, capped by
///   ``TransportLimits/maxAttemptTimeout``) across every redirect, sub-second values included, each ending the call
///   with ``APIClientError/timeout``; there is no separate connect timeout (connecting is idle time). Cancelling the
///   calling task ends it at once with ``APIClientError/cancelled`` and cancels the `URLSessionTask`.
/// - Bodies decoded from gzip, deflate, br or zstd come without the `Content-Encoding` and the stale
///   `Content-Length`; headers come in a deterministic order (sorted by name, ignoring case).
/// - A body larger than ``TransportLimits/maxResponseBytes`` (in memory) or ``TransportLimits/maxFileResponseBytes``
///   (to a file) ends with
///   `.networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))` without reading the rest.
/// - URLSession's errors are mapped as documented in `URLErrorMapping`.
/// - ``HTTPResponse/timings`` holds ``HTTPResponse/Timings/waiting`` (from the start of the last hop to its response head)
///   and ``HTTPResponse/Timings/bodyReceived``, as its delegate callbacks show them; no lookup, connect, TLS or send phase
///   and no ``HTTPResponse/Timings/reusedConnection``, since FoundationNetworking never delivers task metrics.
/// - A file body (``HTTPBody/file(_:contentType:)``, large multipart bodies) is uploaded from its file, never loaded
///   into memory; a 307/308 sends it again from the file. A ``HTTPRequest/responseDestination`` of
///   ``ResponseBodyDestination/file(_:options:)`` has the body written to that file as it arrives (the response's
///   ``HTTPResponse/bodyFileURL``), and the file removed when the request fails. Memory stays bounded either way
///   (a 1 GiB transfer each way peaks below 64 MiB). A large body going to a file
///   comes in segments of ``Configuration/downloadSegmentBytes`` (`Range` requests guarded by `If-Range`) when the
///   server offers byte ranges, because FoundationNetworking holds on to bookkeeping for every received chunk until
///   a task ends. The session's delegate queue holds URLSession back when received chunks pile up in it.
/// - Upload and download progress goes to ``TransferProgress/Reporter/current``.
/// - WebSockets (``BothamAPIClient/webSocket(_:parameters:headers:protocols:options:)``) run on
///   `URLSessionWebSocketTask` on Apple platforms, with the handshake's header fields (interceptors' included). On
///   Linux a handshake fails with ``APIClientError/invalidRequest(reason:)`` before anything is sent:
///   the system libcurl FoundationNetworking links has no WebSocket support on common distributions;
///   `NativeHTTPClient` runs them there.
///
/// The transport only transports: any status is a response; validation and retries belong to ``BothamAPIClient``.
public final class URLSessionHTTPClient: HTTPClient {
    /// The transport's settings.
    public let configuration: Configuration
    let session: URLSession
    private let delegate: URLSessionDelegateHandler
    private let delegateQueue: URLSessionDelegateQueue
    /// The fields this transport adds at preparation to every request (``defaultHeaders(for:)``), computed once:
    /// the session configuration's `httpAdditionalHeaders` sorted by name, then URLSession's own.
    let wireDefaults: HTTPHeaders
    /// The session's cookie storage when the session adds its cookies to requests (`httpShouldSetCookies` with a
    /// storage, which ``defaultSessionConfiguration()`` turns off): its `Cookie` field is added at preparation too,
    /// so interceptors see it.
    let cookieStorage: HTTPCookieStorage?
    /// The TLS configuration, loaded: every session of this transport answers TLS challenges with it.
    let tls: URLSessionTLS

    /// Creates a transport with its own session, verifying servers with the system's trust store.
    ///
    /// - Parameters:
    ///   - configuration: Redirect policy, time and size limits, download segments.
    ///   - sessionConfiguration: The session's configuration (copied); by default
    ///     ``defaultSessionConfiguration()``. Its delegate-related behaviour (redirects, authentication challenges)
    ///     is always the transport's.
    public convenience init(
        configuration: Configuration = Configuration(),
        sessionConfiguration: URLSessionConfiguration = URLSessionHTTPClient.defaultSessionConfiguration()
    ) {
        self.init(configuration: configuration, loadedTLS: .system, sessionConfiguration: sessionConfiguration)
    }

    /// Creates a transport with its own session that verifies servers, and presents a client certificate, as `tls`
    /// says.
    ///
    /// Everything in `tls` is loaded and checked here: a malformed pin, an unreadable file or a wrong PKCS#12
    /// password throws ``TLSError/Code/configuration``; a setting this platform's URLSession cannot honour throws
    /// ``TLSError/Code/unsupported`` (naming `NativeHTTPClient`, which can): what each platform supports is in
    /// <doc:TLS>. A call whose server fails a check ends with
    /// `.networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed))`, its ``TLSError`` as the
    /// `underlying` error when this transport rejected it (a pin mismatch, for one).
    ///
    /// - Parameters:
    ///   - configuration: Redirect policy, time and size limits, download segments.
    ///   - tls: Trust roots, pins and client identities. Session resumption is URLSession's own business and
    ///     cannot be turned off.
    ///   - sessionConfiguration: The session's configuration, as in ``init(configuration:sessionConfiguration:)``.
    public convenience init(
        configuration: Configuration = Configuration(),
        tls: TLSConfiguration,
        sessionConfiguration: URLSessionConfiguration = URLSessionHTTPClient.defaultSessionConfiguration()
    ) throws(TLSError) {
        let loaded = try URLSessionTLS(tls)
        self.init(configuration: configuration, loadedTLS: loaded, sessionConfiguration: sessionConfiguration)
    }

    private init(
        configuration: Configuration, loadedTLS: URLSessionTLS, sessionConfiguration: URLSessionConfiguration
    ) {
        self.configuration = configuration
        tls = loadedTLS
        wireDefaults = Self.wireDefaults(sessionHeaders: Self.headers(of: sessionConfiguration))
        cookieStorage = sessionConfiguration.httpShouldSetCookies ? sessionConfiguration.httpCookieStorage : nil
        let delegate = URLSessionDelegateHandler(tls: loadedTLS)
        self.delegate = delegate
        delegateQueue = URLSessionDelegateQueue()
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue)
    }

    /// An ephemeral configuration (nothing written to disk) with no response cache and no cookie storage: a
    /// transport that sends what the interceptors saw and returns what the server sent.
    ///
    /// Cookies are a ``CookieJar``'s job, the same on both transports and every platform. To let the session
    /// keep cookies of its own instead, turn all three back on: `httpShouldSetCookies`, an `httpCookieAcceptPolicy`
    /// that accepts them (`.always`) and an `httpCookieStorage`. The stored `Cookie` field is then added at
    /// preparation, so interceptors see it, but FoundationNetworking replaces a request's own `Cookie` field with the
    /// stored cookies whenever it holds any for the URL.
    public static func defaultSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        return configuration
    }

    deinit {
        URLSessionThreadGate.shared.whileNeeded { session.finishTasksAndInvalidate() }
    }

    /// Sends `request` and returns the response; see the type's documentation for the guarantees.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let request = try request.prepared(for: self)  // a no-op for a request from BothamAPIClient
        if WebSocketUpgrade.isRequested(by: request) { return try await openWebSocket(request) }
        if request.responseDestination == .stream { return try await stream(request) }
        return try await send(request, in: session, delegate: delegate, delegateQueue: delegateQueue)
    }

    /// A streaming call runs in a session of its own, sharing this one's configuration: its delegate queue holds
    /// URLSession back while the caller is behind (as far as ``URLSessionThreadGate`` allows), never holding another
    /// call's callbacks, and the session is invalidated when the call ends. (Connections are therefore not reused
    /// between streaming calls.)
    private func stream(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let delegate = URLSessionDelegateHandler(tls: tls)
        let delegateQueue = URLSessionDelegateQueue(streaming: true)
        let configuration = session.configuration
        let session = URLSessionThreadGate.shared.whileNeeded {
            URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
        }
        return try await send(request, in: session, delegate: delegate, delegateQueue: delegateQueue) {
            URLSessionThreadGate.shared.whileNeeded { session.finishTasksAndInvalidate() }
        }
    }

    private func send(
        _ request: HTTPRequest,
        in session: URLSession,
        delegate: URLSessionDelegateHandler,
        delegateQueue: URLSessionDelegateQueue,
        onEnd: (@Sendable () -> Void)? = nil
    ) async throws(APIClientError) -> HTTPResponse {
        let limits = configuration.limits
        let attemptLimit = limits.attemptLimit(for: request)
        let deadline = attemptLimit.map { ContinuousClock.now + $0 }
        // Our own limits are enforced by the transfer; URLSession's idle timer is set past the longest of them.
        let idleLimit = limits.idleLimit(for: request)
        let longestLimit =
            attemptLimit == nil && idleLimit == nil ? nil : max(attemptLimit ?? .zero, idleLimit ?? .zero)
        let sent: HTTPRequest
        let firstHop: URLSessionHop
        let bodySize: Int64?
        do {
            // A streamed body goes out from a temporary file, which the transfer keeps until the call ends.
            sent = try await URLSessionBodySpool.spooling(request)
            (firstHop, bodySize) = try URLRequestBuilder.firstHop(for: sent, timeLimit: longestLimit)
        } catch {
            // A streaming call's own session is invalidated even when the call ends before its transfer exists.
            onEnd?()
            throw error
        }
        let transfer = URLSessionTransfer(
            request: request,
            firstHop: firstHop,
            requestBodySize: bodySize,
            configuration: configuration,
            deadline: deadline,
            progress: TransferProgress.Reporter.current,
            hopObserver: RedirectHopObserver.current,
            cancelOnDelegateQueue: { [delegateQueue] task in
                delegateQueue.enqueue { task.cancel() }
            },
            onEnd: onEnd,
            retaining: sent.body
        )
        if request.responseDestination == .stream {
            // The streaming call's own queue (see `stream(_:)`): it holds nobody else's callbacks.
            delegateQueue.holdWhile { [weak transfer] in transfer?.streamCallerIsBehind ?? false }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard transfer.install(continuation) else { return }
                delegate.start(transfer.firstHop, for: transfer, in: session)
                transfer.startTimeouts()
            }
        } onCancel: {
            transfer.finish(.failure(.cancelled))
        }
        return try outcome.get()
    }
}
