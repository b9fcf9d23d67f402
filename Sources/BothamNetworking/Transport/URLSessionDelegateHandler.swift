import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one *session* delegate of a ``URLSessionHTTPClient``.
///
/// On Linux only a session delegate is consulted for redirects (a task delegate passed to `data(for:delegate:)` is
/// not), so every callback of every task comes here and is routed to the task's ``URLSessionTransfer``.
///
/// `Sendable`: the only stored property is a ``Lock``.
final class URLSessionDelegateHandler: NSObject, Sendable {
    private let transfers = Lock<[Int: URLSessionTransfer]>([:])

    /// Starts a task for `request` in `session` as the current hop of `transfer`.
    func start(_ request: URLRequest, for transfer: URLSessionTransfer, in session: URLSession) {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        transfers.withLock { $0[identifier] = transfer }
        if transfer.attach(task) {
            task.resume()
        } else {
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
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(for: dataTask) else { return completionHandler(.cancel) }
        guard let httpResponse = response as? HTTPURLResponse else {
            transfer.finish(.failure(.networkError(NetworkFailure(kind: .badServerResponse))))
            return completionHandler(.cancel)
        }
        completionHandler(transfer.didReceive(httpResponse) ? .allow : .cancel)
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
        switch transfer.willRedirect(response, to: request) {
        case .follow(let next): completionHandler(next)
        case .stop: completionHandler(nil)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Answering is what keeps Linux from hanging on a 401 with `WWW-Authenticate` and no credential.
        transfer(for: task)?.didReceiveAuthenticationChallenge()
        completionHandler(.rejectProtectionSpace, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = removeTransfer(for: task), let next = transfer.didComplete(error: error) else { return }
        start(next, for: transfer, in: session)
    }
}
