import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one *session* delegate of a ``URLSessionHTTPClient``.
///
/// On Linux only a session delegate is consulted for redirects (a task delegate passed to `data(for:delegate:)` is
/// not), so every callback of every task comes here and is routed to the task's ``URLSessionTransfer``.
///
/// `Sendable`: its stored properties are a ``Lock`` and a `Sendable` ``URLSessionTLS``.
final class URLSessionDelegateHandler: NSObject, Sendable {
    private let transfers = Lock<[Int: URLSessionTransfer]>([:])
    /// How server-trust and client-certificate challenges are answered (Apple platforms).
    private let tls: URLSessionTLS

    init(tls: URLSessionTLS) {
        self.tls = tls
    }

    /// Starts a task for `hop` in `session` as the current hop of `transfer`: an upload task streaming the body from
    /// its file, otherwise a data task. A body that goes to a file is written by the transfer as it arrives (a data
    /// task's chunks reach the delegate queue, which holds URLSession back when they pile up).
    /// Creating and resuming a task synchronise with URLSession's thread: `transfer` needs that thread from its
    /// creation to its end (``URLSessionThreadGate``), so no stream holds it meanwhile.
    func start(_ hop: URLSessionHop, for transfer: URLSessionTransfer, in session: URLSession) {
        let task: URLSessionTask
        if let bodyFile = hop.bodyFile {
            task = session.uploadTask(with: hop.request, fromFile: bodyFile)
        } else {
            task = session.dataTask(with: hop.request)
        }
        let identifier = task.taskIdentifier
        transfers.withLock { $0[identifier] = transfer }
        if transfer.attach(task) {
            if let delegateQueue = OperationQueue.current as? URLSessionDelegateQueue {
                // A next hop started from a delegate callback: resuming synchronises with URLSession's thread.
                delegateQueue.withGateOpen { task.resume() }
            } else {
                task.resume()
            }
        } else {
            // Never resumed, so no delegate decision is pending: cancelling here is safe.
            transfers.withLock { _ = $0.removeValue(forKey: identifier) }
            task.cancel()
        }
    }

    private func transfer(for task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    private func removeTransfer(for task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }
}

extension URLSessionDelegateHandler: URLSessionDataDelegate {
    // A callback for a call that has ended does not answer URLSession: the call's task is being cancelled on this
    // same serial queue (see `URLSessionTransfer`), and answering after that cancellation traps on Linux.

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(for: dataTask) else { return completionHandler(.allow) }
        guard let httpResponse = response as? HTTPURLResponse else {
            transfer.finish(.failure(.networkError(APIClientError.NetworkFailure(kind: .badServerResponse))))
            return
        }
        if case .answer = transfer.didReceive(httpResponse) { completionHandler(.allow) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.didReceive(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else { return completionHandler(nil) }
        let answer = transfer.willRedirect(
            response,
            to: request,
            storedCookies: Self.storedCookies(for: request.url, in: session)
        )
        if case .answer(let next) = answer { completionHandler(next) }
    }

    /// The `Cookie` field the session's cookie storage holds for `url`, on Linux only: FoundationNetworking leaves
    /// stored cookies out of a redirect that a delegate approves (Apple platforms add them).
    private static func storedCookies(for url: URL?, in session: URLSession) -> String? {
        #if canImport(FoundationNetworking)
            let configuration = session.configuration
            guard let url, configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage,
                let cookies = storage.cookies(for: url), !cookies.isEmpty
            else { return nil }
            return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
        #else
            return nil
        #endif
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // A server-trust challenge is the platform's own certificate check (Apple platforms; FoundationNetworking
        // never sends one, nor a client-certificate challenge): custom roots and pins answer it, otherwise it keeps
        // its default handling, or every HTTPS call would fail. A configured identity answers a client-certificate
        // challenge.
        #if canImport(Security)
            let answered = tls.answer(
                challenge, rejected: { self.transfer(for: task)?.didRejectServerTrust($0) },
                completionHandler: completionHandler)
            if answered { return }
            // Without custom roots, pins or an identity: the platform's handling (for a client-certificate
            // challenge, none is presented and the server decides), never the 401 path below.
            switch challenge.protectionSpace.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust, NSURLAuthenticationMethodClientCertificate:
                return completionHandler(.performDefaultHandling, nil)
            default:
                break
            }
        #endif
        // Answering is what keeps Linux from hanging on a 401 with `WWW-Authenticate` and no credential.
        guard let transfer = transfer(for: task) else { return completionHandler(.rejectProtectionSpace, nil) }
        if case .answer = transfer.didReceiveAuthenticationChallenge() {
            completionHandler(.rejectProtectionSpace, nil)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.didSend(totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = removeTransfer(for: task),
            let next = transfer.didComplete(error: error, response: task.response as? HTTPURLResponse)
        else { return }
        start(next, for: transfer, in: session)
    }
}
