// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Raw URLSession used the way a transport that needs a session delegate has to use it on Linux (only a session
    /// delegate is asked about redirects and authentication challenges there): data tasks whose every callback comes
    /// through the session's delegate queue, and nothing else. It separates the platform's cost of that path from ours.
    struct DelegateURLSession: Sendable {
        private final class Handler: NSObject, URLSessionDataDelegate, Sendable {
            private let calls = Lock<[Int: (continuation: CheckedContinuation<Int, Never>, status: Int)]>([:])

            func register(_ identifier: Int, _ continuation: CheckedContinuation<Int, Never>) {
                calls.withLock { $0[identifier] = (continuation, 0) }
            }

            func urlSession(
                _ session: URLSession,
                dataTask: URLSessionDataTask,
                didReceive response: URLResponse,
                completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
            ) {
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                calls.withLock { $0[dataTask.taskIdentifier]?.status = status }
                completionHandler(.allow)
            }

            func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

            func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
                guard let call = calls.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
                call.continuation.resume(returning: error == nil ? call.status : 0)
            }
        }

        private let handler = Handler()
        private let session: URLSession

        /// A session with at most `maxConnections` connections per host (`nil`: URLSession's default).
        init(maxConnections: Int? = nil) {
            session = URLSession(
                configuration: .ephemeral(maxConnections: maxConnections), delegate: handler, delegateQueue: nil)
        }

        /// The status of a `GET url`, or 0 when it failed.
        func status(of url: URL) async -> Int {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: URLRequest(url: url))
                handler.register(task.taskIdentifier, continuation)
                task.resume()
            }
        }
    }

#endif
