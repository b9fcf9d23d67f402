import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionHTTPClient {
    /// Why this transport cannot open a WebSocket on this platform, or `nil` where it can (Apple platforms).
    static var webSocketUnavailability: String? {
        #if canImport(Darwin)
            return nil
        #else
            return "URLSessionHTTPClient does not open WebSockets on Linux: FoundationNetworking's "
                + "URLSessionWebSocketTask needs a libcurl built with WebSocket support, and the system libcurl it "
                + "links has none on common distributions (Debian 12's 7.88.1 fails with NSURLErrorDomain -1002, "
                + "\"WebSockets not supported by libcurl\"); use NativeHTTPClient (BothamNetworkingNative), which "
                + "runs WebSockets on Linux and Apple platforms"
        #endif
    }

    /// The WebSocket handshake `request` asks for: on Apple platforms a `URLSessionWebSocketTask` in a session of
    /// its own; elsewhere ``APIClientError/invalidRequest(reason:)`` before anything is sent.
    func openWebSocket(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        #if canImport(Darwin)
            return try await URLSessionWebSocketChannel.open(
                request, configuration: session.configuration, limits: configuration.limits, tls: tls)
        #else
            throw .invalidRequest(reason: Self.webSocketUnavailability ?? "")
        #endif
    }
}

#if canImport(Darwin)
    /// A WebSocket on `URLSessionWebSocketTask`: the task runs the handshake and RFC 6455, this adapts its
    /// calls to the ``WebSocketChannel`` the client uses. Each socket has a session of its own (its delegate sees
    /// the open and the close), invalidated when the socket ends.
    ///
    /// `@unchecked Sendable`: its stored properties are immutable; `URLSessionWebSocketTask` and `URLSession` are
    /// thread-safe (Foundation documents every method as callable from any thread), and ``ending`` is a lock.
    final class URLSessionWebSocketChannel: WebSocketChannel, @unchecked Sendable {
        /// The field names the task writes itself; the request's others (interceptors' included) are sent as they are.
        static let fieldsTheTaskSets: [HTTPFieldName] = [
            .upgrade, .connection, .secWebSocketKey, .secWebSocketVersion, .secWebSocketExtensions,
        ]

        let subprotocol: String?
        private let task: URLSessionWebSocketTask
        private let session: URLSession
        private let events: URLSessionWebSocketEvents
        private let options: WebSocket.Options
        /// How the socket ended when the task cannot say (a failure, a close that timed out, an abort).
        private let ending = Lock<WebSocket.Closure?>(nil)

        private init(
            task: URLSessionWebSocketTask, session: URLSession, events: URLSessionWebSocketEvents,
            subprotocol: String?, options: WebSocket.Options
        ) {
            self.task = task
            self.session = session
            self.events = events
            self.subprotocol = subprotocol
            self.options = options
        }

        /// Runs the handshake of `request`: its `101` with the open channel, or the server's other response (for
        /// the response interceptors: a `401` is refreshed as any call's), or the task's error.
        static func open(
            _ request: HTTPRequest, configuration: URLSessionConfiguration, limits: TransportLimits,
            tls: URLSessionTLS
        ) async throws(APIClientError) -> HTTPResponse {
            let options = WebSocketUpgrade.current?.options ?? WebSocket.Options()
            var urlRequest = URLRequest(url: try request.resolvedURL())
            var fields = request.headers
            for name in fieldsTheTaskSets { fields.remove(name) }
            URLRequestBuilder.addHeaderFields(fields, to: &urlRequest)
            if let limit = limits.attemptLimit(for: request) {
                urlRequest.timeoutInterval = limit.seconds.rounded(.up) + 1
            }
            let events = URLSessionWebSocketEvents(tls: tls)
            let session = URLSession(configuration: configuration, delegate: events, delegateQueue: nil)
            let task = session.webSocketTask(with: urlRequest)
            task.maximumMessageSize = options.maxMessageSize
            let opened = await withTaskCancellationHandler {
                await events.open(task)
            } onCancel: {
                task.cancel()
            }
            let head = task.response as? HTTPURLResponse
            var headers = HTTPHeaders()
            for (name, value) in (head?.allHeaderFields ?? [:]) {
                if let name = name as? String, let value = value as? String { headers.add(HTTPFieldName(name), value) }
            }
            switch opened {
            case .success(let subprotocol):
                let channel = URLSessionWebSocketChannel(
                    task: task, session: session, events: events, subprotocol: subprotocol, options: options)
                return HTTPResponse(
                    statusCode: head?.statusCode ?? 101, headers: headers, body: Data(), request: request
                )
                .withUpgrade(WebSocketChannelHandle(channel))
            case .failure(let error):
                session.invalidateAndCancel()
                if Task.isCancelled { throw .cancelled }
                if let head, head.statusCode != 101 {
                    return HTTPResponse(statusCode: head.statusCode, headers: headers, body: Data(), request: request)
                }
                throw URLErrorMapping.apiClientError(for: error, tlsFailure: events.tlsFailure)
            }
        }

        var closure: WebSocket.Closure? {
            if let ended = ending.withLock({ $0 }) { return ended }
            guard task.closeCode != .invalid else { return nil }
            let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return WebSocket.Closure(
                code: WebSocket.CloseCode(UInt16(clamping: task.closeCode.rawValue)), reason: reason)
        }

        func send(_ message: WebSocket.Message) async throws(APIClientError) {
            let wire: URLSessionWebSocketTask.Message
            switch message {
            case .text(let text): wire = .string(text)
            case .binary(let data): wire = .data(data)
            }
            do {
                try await task.send(wire)
            } catch {
                throw failure(error)
            }
        }

        func receive() async throws(APIClientError) -> WebSocket.Message? {
            let message: URLSessionWebSocketTask.Message
            do {
                message = try await task.receive()
            } catch {
                // After the close handshake the task throws too: a socket with a close code ended cleanly.
                if ending.withLock({ $0 }) == nil, task.closeCode != .invalid, task.closeCode != .messageTooBig {
                    return nil
                }
                throw failure(error)
            }
            switch message {
            case .string(let text): return .text(text)
            case .data(let data): return .binary(data)
            @unknown default:
                throw .networkError(APIClientError.NetworkFailure(kind: .badServerResponse))
            }
        }

        func ping() async throws(APIClientError) {
            let error: (any Error)? = await withCheckedContinuation { continuation in
                task.sendPing { continuation.resume(returning: $0) }
            }
            if let error { throw failure(error) }
        }

        func close(code: WebSocket.CloseCode, reason: String) async {
            guard closure == nil else { return }
            let taskCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
            task.cancel(with: taskCode, reason: Data(WebSocket.closeFrameReason(reason).utf8))
            let answered = await events.waitForCompletion(timeout: options.closeTimeout)
            if !answered {
                let reason = "the peer did not answer the close within \(options.closeTimeout)"
                ending.withLock { if $0 == nil { $0 = WebSocket.Closure(code: .abnormalClosure, reason: reason) } }
            }
            session.invalidateAndCancel()
        }

        func abort() {
            if closure == nil {
                ending.withLock { $0 = WebSocket.Closure(code: .goingAway, reason: "") }
                task.cancel(with: .goingAway, reason: nil)
            }
            session.invalidateAndCancel()
        }

        /// The error of a failed operation: the task's, mapped as URLSession's errors are, or the message size limit.
        private func failure(_ error: any Error) -> APIClientError {
            if task.closeCode == .messageTooBig {
                return .networkError(APIClientError.NetworkFailure(kind: .responseTooLarge, underlying: error))
            }
            if task.closeCode == .invalid {
                ending.withLock { if $0 == nil { $0 = WebSocket.Closure(code: .abnormalClosure, reason: "") } }
            }
            return URLErrorMapping.apiClientError(for: error, afterResponseHead: true)
        }
    }

    /// The delegate of a WebSocket's session: tells the opener when the handshake ended, and the closer when the
    /// task completed; answers TLS challenges as the client's ``URLSessionTLS`` says.
    final class URLSessionWebSocketEvents: NSObject, URLSessionWebSocketDelegate, Sendable {
        private struct State {
            var opener: CheckedContinuation<Result<String?, any Error>, Never>?
            var completed = false
            var completionWaiters: [CheckedContinuation<Bool, Never>] = []
            var tlsFailure: TLSError?
        }

        private let state = Lock(State())
        private let tls: URLSessionTLS

        init(tls: URLSessionTLS) {
            self.tls = tls
        }

        /// Why the server was rejected during the handshake (custom roots, pins), if it was.
        var tlsFailure: TLSError? { state.withLock { $0.tlsFailure } }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let answered = tls.answer(
                challenge, rejected: { failure in self.state.withLock { $0.tlsFailure = failure } },
                completionHandler: completionHandler)
            if !answered { completionHandler(.performDefaultHandling, nil) }
        }

        /// Resumes `task` and returns the subprotocol the server chose once it opened, or the error it ended with.
        func open(_ task: URLSessionWebSocketTask) async -> Result<String?, any Error> {
            await withCheckedContinuation { continuation in
                state.withLock { $0.opener = continuation }
                task.resume()
            }
        }

        /// Waits until the task completed (`true`) or `timeout` passed (`false`).
        func waitForCompletion(timeout: Duration) async -> Bool {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    if !state.completed { state.completionWaiters.append(continuation) }
                    return state.completed
                }
                if done { return continuation.resume(returning: true) }
                Task {
                    try? await Task.sleep(for: timeout)
                    self.finish(completed: false)
                }
            }
        }

        func urlSession(
            _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
        ) {
            let opener = state.withLock { state in
                defer { state.opener = nil }
                return state.opener
            }
            opener?.resume(returning: .success(`protocol`))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let opener = state.withLock { state in
                defer { state.opener = nil }
                return state.opener
            }
            opener?.resume(returning: .failure(error ?? URLError(.badServerResponse)))
            finish(completed: true)
        }

        private func finish(completed: Bool) {
            let waiters = state.withLock { state in
                if completed { state.completed = true }
                defer { state.completionWaiters = [] }
                return state.completionWaiters
            }
            for waiter in waiters { waiter.resume(returning: completed) }
        }
    }
#endif
