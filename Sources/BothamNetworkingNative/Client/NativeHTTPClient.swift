import BothamNetworking
import Foundation

/// An HTTP/1.1 and HTTP/2 client on its own event loop: non-blocking sockets with epoll, keep-alive pooling (one
/// shared connection per origin over HTTP/2, ``Configuration/httpVersion``), OpenSSL 3 for HTTPS and zlib for
/// `gzip`/`deflate`. A drop-in `HTTPClient` for `BothamAPIClient`:
///
/// ```swift
/// let api = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: NativeHTTPClient())
/// ```
///
/// A waiting call costs no CPU and holds no thread: the loop thread sleeps in `epoll_wait` and the calling task is
/// suspended on a continuation. Cancelling the task closes its connection at once and ends the call with
/// `APIClientError.cancelled`. Failures map to `APIClientError` as the other transports do: `networkError` with
/// `cannotConnect`, `cannotFindHost`, `connectionLost`, `secureConnectionFailed`, `badServerResponse`,
/// `responseTooLarge` or `tooManyRedirects` (the `underlying` error is a ``NativeTransportError`` or
/// `TLSError`), and `timeout`.
///
/// A file body (`HTTPBody.file`, large multipart bodies) is streamed from disk in 64 KiB chunks with its size as
/// `Content-Length`, never loaded whole. A response body with a file destination (`apiClient.download`,
/// `HTTPRequest.responseDestination`) is written to its file as it arrives (bounded by
/// `TransportLimits.maxFileResponseBytes`, none by default); no `Accept-Encoding` is offered for it, and a coded body
/// that comes anyway is stored as sent, its `Content-Encoding` kept. Other response bodies are held in memory
/// (bounded by `TransportLimits.maxResponseBytes`). Time limits are ``Configuration/limits``: connecting, idle time
/// and the whole attempt, sub-second values included. A 1 GiB transfer each way peaks at about 30 MiB. Upload and
/// download progress goes to `TransferProgress.Reporter.current`, reported on the loop thread.
///
/// Every response carries the `HTTPResponse.Timings` of its exchange (the last hop of a redirected call) in
/// `HTTPResponse.timings`, measured on the loop's monotonic clock with a few clock reads per exchange: the lookup
/// (about zero for an answer from the DNS cache, none for an IP literal), the connect from the first Happy Eyeballs
/// attempt to the winner, the TLS handshake, the request sent, the wait for the first byte and the body (none for a
/// streamed body, handed over at its head), and whether the connection was reused (then it has no lookup, connect or
/// handshake).
///
/// ## Lifecycle
///
/// There is nothing to shut down. Clients share the process's event-loop threads, each started with the first
/// client that needs it and kept for the life of the process (it sleeps in `epoll_wait` when nothing is in flight);
/// a client owns only its pools of kept-alive connections, and closes them when its last reference goes. A call in
/// flight holds its client, so it finishes first. Keep one client per configuration for as long as you call a
/// service, to reuse its connections; dropping it releases every descriptor it held.
///
/// ## Event loops
///
/// A client spreads its calls over ``Configuration/eventLoops`` loops (``EventLoopCount/automatic`` by default), one
/// thread each, shared with every other client (a client asking for `n` loops gets the process's first `n`). Each
/// loop has the client's own pool of connections: a call made on a loop (its
/// task prefers one of ``taskExecutors``) uses that loop's pool and stays on its thread, and any other call goes
/// to the loop with the fewest of this client's calls from other tasks in flight (a streamed body counts until it
/// ends; the first loop on a tie, so that one caller at a time keeps reusing one connection).
/// ``Configuration/maxConnectionsPerHost`` stays the total: it is split across the loops, and a client uses no more
/// loops than that cap.
public final class NativeHTTPClient: HTTPClient {
    /// The settings this client was made with.
    public let configuration: Configuration
    /// One connection pool per event loop, or `nil` when no loop could be started.
    let shards: PoolShards?
    /// Credentials a ``ProxyAuthenticator`` gave that the proxy accepted, by the proxy as configured: sent up front
    /// on later calls.
    let answeredProxyCredentials = Lock<[ProxyServer: BasicAuthCredentials]>([:])

    /// Creates a client. The TLS configuration is loaded on the first HTTPS request (and shared by clients with the
    /// same configuration); one that cannot be loaded (bad PEM, bad pin) makes HTTPS calls fail with
    /// `secureConnectionFailed` carrying a `TLSError` with code `configuration`, while HTTP still works.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let loopCount = configuration.eventLoops.count(
            for: configuration.httpVersion, maxConnectionsPerHost: configuration.maxConnectionsPerHost)
        shards = EventLoop.sharedLoops(count: loopCount).flatMap { loops in
            PoolShards(
                loops: loops,
                maxConnectionsPerHost: configuration.maxConnectionsPerHost,
                idleTimeout: MonotonicClock.nanoseconds(configuration.idleConnectionTimeout),
                connectSettings: configuration.makeConnectSettings()
            )
        }
    }

    deinit {
        shards?.shutdown()
    }

    /// The executor of this client's first event loop, or `nil` when the loop could not be started.
    ///
    /// Calls made from a task that prefers it run on the loop thread from start to end, so a call costs no thread
    /// switch at all (the default: two, onto the loop and back to the cooperative pool). Worth it for many small
    /// requests; keep CPU-heavy work (large JSON decoding) off it, since the loop also serves every other call. A
    /// client with several loops (``Configuration/eventLoops``) offers one executor per loop in ``taskExecutors``;
    /// this is their first, and calls made on it get its share of
    /// ``Configuration/maxConnectionsPerHost``: spread the tasks over ``taskExecutors`` to use them all, or set
    /// ``Configuration/eventLoops`` to ``EventLoopCount/one`` to keep the whole cap on this one.
    ///
    /// ```swift
    /// let client = NativeHTTPClient()
    /// let api = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: client)
    /// let users = await withTaskExecutorPreference(client.taskExecutor) {
    ///     await api.GET("/users")
    /// }
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public var taskExecutor: (any TaskExecutor)? { shards?.shards.first?.loop }

    /// The executors of this client's event loops, one per loop, the first being ``taskExecutor``; empty when no
    /// loop could be started.
    ///
    /// A call made from a task that prefers one of them uses that loop's own pool of connections and runs on its
    /// thread from start to end. Spread the calling tasks over them to use every loop;
    /// calls from any other task go to the loop with the fewest of this client's calls from other tasks in flight.
    /// There are ``Configuration/eventLoops`` of them, fewer when ``Configuration/maxConnectionsPerHost`` is smaller (each
    /// loop needs a share of the cap).
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()  // up to one loop per core, 4 connections each
    /// let client = NativeHTTPClient(configuration: configuration)
    /// let api = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: client)
    /// let executors = client.taskExecutors
    /// await withTaskGroup(of: Void.self) { group in
    ///     for index in 0..<64 {
    ///         group.addTask(executorPreference: executors[index % executors.count]) {
    ///             _ = await api.GET("/users/\(index)")
    ///         }
    ///     }
    /// }
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public var taskExecutors: [any TaskExecutor] { shards?.shards.map(\.loop) ?? [] }

    /// Sends `request`, following redirects as ``Configuration/redirectPolicy`` says.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        // The attempt's limit (the request's own timeout or `attemptTimeout`, capped by `maxAttemptTimeout`) bounds
        // every hop and the whole body; `idleTimeout` bounds each exchange's time without progress.
        let start = MonotonicClock.now()
        let request = try request.prepared(for: self)  // a no-op for a request from BothamAPIClient
        let deadline = configuration.limits.attemptLimit(for: request).map { start &+ MonotonicClock.nanoseconds($0) }
        var current = request
        var url = try request.resolvedURL()
        var redirects = 0
        let progress = TransferProgress.Reporter.current
        while true {
            let (parsed, bodyStream) = try await exchange(current, url: url, deadline: deadline, progress: progress)
            if let webSocket = parsed.webSocket {
                return HTTPResponse(
                    statusCode: parsed.statusCode, headers: parsed.headers, request: request, url: url,
                    timings: parsed.timings
                )
                .withUpgrade(WebSocketChannelHandle(webSocket))
            }
            if let bodyStream {
                return HTTPResponse(
                    statusCode: parsed.statusCode, headers: parsed.headers, request: request, url: url,
                    bodyStream: bodyStream, timings: parsed.timings)
            }
            let policy = configuration.redirectPolicy
            if policy.followsRedirects,
                let next = RedirectHop.redirect(
                    after: current,
                    sentTo: url,
                    statusCode: parsed.statusCode,
                    location: parsed.headers[.location],
                    sensitiveFields: policy.sensitiveFields
                )
            {
                redirects += 1
                guard redirects <= policy.maxRedirects else {
                    let reason = "more than \(policy.maxRedirects) redirects, the last to \(next.url)"
                    let error = NativeTransportError(code: .redirect, reason: reason)
                    throw .networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects, underlying: error))
                }
                // Read only when a redirect is followed (in the calling task, which bound it): no cost per request.
                if let hopObserver = RedirectHopObserver.current {
                    // The redirect as the hop observer sees it: status and fields, from the URL that answered, answering
                    // the call's request (as on URLSession).
                    let redirect = HTTPResponse(
                        statusCode: parsed.statusCode, headers: parsed.headers, request: request, url: url)
                    let headers = try hopObserver.headers(
                        after: redirect, to: next.url, proposed: next.request.headers)
                    (current, url) = (next.request.withHeaders(headers), next.url)
                } else {
                    (current, url) = next
                }
                continue
            }
            if let bodyFile = request.responseDestination.fileURL {
                // Written as it arrived, as the server sent it (no `Accept-Encoding` was offered for it).
                return HTTPResponse(
                    statusCode: parsed.statusCode, headers: parsed.headers, request: request, url: url,
                    bodyFileURL: bodyFile, timings: parsed.timings)
            }
            let decoded = try decode(parsed)
            if let progress, decoded.body.count != parsed.body.count {
                let count = Int64(decoded.body.count)
                progress.report(.download, completed: count, total: count)
            }
            return HTTPResponse(
                statusCode: decoded.statusCode,
                headers: decoded.headers,
                body: decoded.body,
                request: request,
                url: url,
                timings: parsed.timings
            )
        }
    }

    // MARK: One hop

    /// How many times a hop is sent again after HTTP/2 servers refused it.
    static let maxRefusedRetries = 3

    private func exchange(
        _ request: HTTPRequest, url: URL, deadline: UInt64?, progress: TransferProgress.Reporter?
    ) async throws(APIClientError) -> (ParsedResponse, HTTPBodyStream?) {
        guard let shards else {
            let error = NativeTransportError(code: .socket, reason: "the event loop could not be started")
            throw .networkError(APIClientError.NetworkFailure(kind: .other, underlying: error))
        }
        // The calling task's loop when it runs on one of ours, else the least busy: every attempt of this hop on it.
        let (shard, counted) = shards.enter()
        let loop = shard.loop
        // A streamed body holds its connection until it ends: the call counts as busy until then.
        var handedOff = false
        defer { if !handedOff { shards.leave(shard, counted: counted) } }
        var plan = try makePlan(request, url: url, deadline: deadline)
        plan.progress = progress
        var replayedStale = false
        var refusals = 0
        var answeredProxy = false
        while true {
            if Task.isCancelled { throw .cancelled }
            let exchange = Exchange(plan: plan, pool: shard.pool, loop: loop)
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    // On the loop thread already (the task prefers the loop's executor): no hop, no wake-up.
                    if loop.isCurrent {
                        exchange.start(continuation)
                    } else {
                        loop.execute { exchange.start(continuation) }
                    }
                }
            } onCancel: {
                loop.execute { exchange.cancel() }
            }
            exchange.receivedOutcome()
            let failure: APIClientError
            switch outcome {
            case .response(let response):
                guard let refusal = Self.proxyAuthenticationFailure(response, plan: plan) else {
                    if answeredProxy { rememberAnsweredCredentials(of: plan, statusCode: response.statusCode) }
                    return (response, nil)
                }
                failure = refusal
            case .streaming(let head, let body):
                guard let refusal = Self.proxyAuthenticationFailure(head, plan: plan) else {
                    if answeredProxy { rememberAnsweredCredentials(of: plan, statusCode: head.statusCode) }
                    if counted {
                        handedOff = true
                        body.onEnd { _ in shards.leave(shard, counted: true) }
                    }
                    return (head, body)
                }
                failure = refusal
            case .failure(let error):
                // A cancellation wins over whatever ended the exchange meanwhile: the loop runs due timers before
                // the work queued for it, so a timeout (or a failure) may be decided after `onCancel` already ran.
                if Task.isCancelled { throw .cancelled }
                failure = error
            case .refused:
                // RFC 9113 §8.7: the server processed nothing, so any method may go again, on another stream or
                // connection. A few times: a server that refuses every stream gets its refusal reported.
                refusals += 1
                guard refusals <= Self.maxRefusedRetries else {
                    let error = NativeTransportError(
                        code: .closedByPeer, reason: "the HTTP/2 server refused the request \(refusals) times")
                    throw .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))
                }
                let route = plan.route  // with the proxy credentials an authenticator answered, if any
                plan = try makePlan(request, url: url, deadline: deadline)
                plan.route = route
                plan.progress = progress
                continue
            case .staleConnection:
                if !replayedStale && request.method.isIdempotent {
                    replayedStale = true
                    plan.freshConnection = true
                    continue
                }
                let error = NativeTransportError(code: .closedByPeer, reason: "the kept-alive connection was closed")
                throw .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))
            }
            // At most one answered retry per hop: a second refusal is the caller's typed error, never a loop.
            guard !answeredProxy,
                let retry = try await planAnsweringProxy(failure, plan: plan, request: request, url: url)
            else { throw failure }
            answeredProxy = true
            plan = retry
        }
    }

    func makePlan(
        _ request: HTTPRequest, url: URL, deadline: UInt64?, answeredCredentials: BasicAuthCredentials? = nil
    ) throws(APIClientError) -> ExchangePlan {
        // `request` is prepared (checked once, in `send`), or a redirect's follow-up that `RedirectHop` made from
        // it (a token method, a subset of its header fields, its body or none): nothing needs checking again.
        let (origin, originTarget) = try Origin.parse(url)
        var route: ConnectionRoute
        if let socketPath = origin.unixSocketPath {
            // A socket file is reached directly: no proxy applies, and a path the kernel cannot take fails here.
            if let problem = UnixSocketAddress.problem(with: socketPath) { throw .invalidRequest(reason: problem) }
            route = ConnectionRoute(origin: origin)
        } else {
            route = ConnectionRoute(origin: origin, proxy: proxy(for: origin, answered: answeredCredentials))
        }
        let upgradesToWebSocket = WebSocketUpgrade.isRequested(by: request)
        if route.proxy?.kind == .http, !origin.isTLS, upgradesToWebSocket {
            // A WebSocket through an HTTP proxy tunnels with CONNECT, as browsers do: a forwarding proxy may drop
            // the upgrade (RFC 9110 §7.8 makes `Upgrade` hop-by-hop).
            route.upgradesToWebSocket = true
        }
        var target = originTarget
        var headers = request.headers
        // RFC 6455 §4.1: a fresh nonce for every connection, so a retried or redirected handshake gets its own.
        let webSocketKey = upgradesToWebSocket ? WebSocketOpening.makeKey() : nil
        if let webSocketKey { headers[.secWebSocketKey] = webSocketKey }
        if route.forwardsToHTTPProxy, let proxy = route.proxy {
            // RFC 9112 §3.2.2: absolute form to a proxy; its credentials on this hop only, never on a tunnel.
            target = "http://\(origin.hostHeader)\(originTarget)"
            // An authenticator's answer replaces whatever the refused request carried.
            if answeredCredentials != nil { headers.remove(.proxyAuthorization) }
            if let credentials = proxy.credentials, !headers.contains(.proxyAuthorization) {
                headers.add(.proxyAuthorization, credentials.authorizationHeaderValue)
            }
        } else if route.needsTunnel, headers.contains(.proxyAuthorization) {
            // Inside a tunnel every field reaches the origin: a proxy credential must not (checked first, so a
            // request without one is not copied).
            headers.remove(.proxyAuthorization)
        }
        var tlsContext: TLSContext?
        if origin.isTLS {
            switch TLSContextCache.context(
                for: configuration.tls, alpn: ALPNOffer(configuration.httpVersion), origin: origin)
            {
            case .success(let context): tlsContext = context
            case .failure(let error):
                throw .networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed, underlying: error))
            }
        }
        // A body going to a file is written as it arrives, so no coding is offered for it (it could not be decoded
        // afterwards without reading it back); the `Accept-Encoding` offered otherwise is in the request already
        // (`defaultHeaders(for:)`).
        let streaming = request.responseDestination == .stream
        let decodes = configuration.decompression && request.responseDestination.fileURL == nil && !streaming
        // A file body is streamed from disk with its size as Content-Length; every other body is encoded now.
        let bodyFile = try request.body?.fileURL.map { url throws(APIClientError) in (url, try FileBody.size(of: url)) }
        // A streamed body is read while it is sent: a fresh sequence per hop (a used-up one fails here, clearly).
        let streamed = request.body?.streamed
        let bodyStream = try streamed.map { body throws(APIClientError) in (try body.makeChunks(), body.length) }
        let body = bodyFile == nil && streamed == nil ? try request.bodyData() : nil
        let bodyLength = bodyFile?.1 ?? streamed?.length ?? body?.count
        let chunked = streamed != nil && streamed?.length == nil
        let head = RequestHead(
            http1: HTTPRequestSerializer.head(
                method: request.method.rawValue,
                target: target,
                origin: origin,
                headers: headers,
                bodyLength: bodyLength,
                chunked: chunked
            ),
            method: request.method.rawValue,
            origin: origin,
            path: originTarget,
            headers: headers,
            bodyLength: bodyLength,
            chunked: chunked
        )
        let connectionTokens = request.headers.values(for: .connection).flatMap(HTTPFieldList.elements(of:))
        var plan = ExchangePlan(
            route: route,
            tlsContext: tlsContext,
            method: request.method.rawValue,
            head: head,
            body: body,
            bodyFile: bodyFile.map { (url: $0.0, length: $0.1) },
            requestCloses: connectionTokens.contains("close"),
            limits: HTTPParserLimits(
                maxHeadBytes: max(1024, configuration.maxHeaderBytes),
                maxBodyBytes: max(0, configuration.limits.bodyLimit(for: request) ?? Int.max)
            ),
            idleTimeout: configuration.limits.idleLimit(for: request).map(MonotonicClock.nanoseconds),
            connectTimeout: configuration.limits.connectTimeout.map(MonotonicClock.nanoseconds),
            deadline: deadline
        )
        plan.responseBodyFile = request.responseDestination.fileURL
        if let bodyStream {
            plan.bodyStream = (chunks: bodyStream.0, length: bodyStream.1)
            // Never on a kept-alive connection: one that turns out stale could not replay a body already read.
            plan.freshConnection = true
        }
        plan.decodesAfterwards = decodes
        if streaming {
            plan.decodesStream = configuration.decompression
            // A redirect that will be followed is read whole (its body is dropped); every other response streams.
            let policy = configuration.redirectPolicy
            plan.streams = { statusCode, headers in
                !(policy.followsRedirects
                    && RedirectHop.redirect(
                        after: request, sentTo: url, statusCode: statusCode, location: headers[.location]) != nil)
            }
        }
        if let webSocketKey { try planWebSocket(&plan, for: request, key: webSocketKey) }
        return plan
    }

    private func decode(_ response: ParsedResponse) throws(APIClientError) -> ParsedResponse {
        guard configuration.decompression else { return response }
        do {
            return try ContentDecoder.decode(response, limit: max(0, configuration.limits.maxResponseBytes ?? Int.max))
        } catch {
            let kind: APIClientError.NetworkFailure.Kind =
                error.code == .responseTooLarge ? .responseTooLarge : .badServerResponse
            throw .networkError(APIClientError.NetworkFailure(kind: kind, underlying: error))
        }
    }
}
