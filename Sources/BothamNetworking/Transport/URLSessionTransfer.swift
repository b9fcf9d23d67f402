import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ``URLSessionHTTPClient/send(_:)`` call: its state from the first hop to the last byte, across redirects and
/// re-issued 307/308 requests, and the single place where the call ends.
///
/// Every path that ends the call — the body completing, an error, a redirect limit, the size limit, the time limit,
/// the caller's cancellation — goes through ``finish(_:)``, which resumes the caller exactly once, stops the timer
/// and, on failure, has the `URLSessionTask` cancelled. Callbacks that arrive afterwards are ignored.
///
/// FoundationNetworking traps ("Received callback for HTTP redirection, but we're not waiting for it") when a task
/// is cancelled while URLSession waits for a delegate's redirect or response decision and the decision arrives
/// afterwards. So a started task is only ever cancelled on the session's serial delegate queue (through
/// `cancelOnDelegateQueue`), and a delegate callback for a finished call never answers: the queued cancellation
/// ends the task, whichever of the two runs first.
final class URLSessionTransfer: Sendable {
    typealias Outcome = Result<HTTPResponse, APIClientError>

    /// What a delegate callback should answer URLSession.
    enum Answer<Value> {
        /// Answer with this value.
        case answer(Value)
        /// The call has ended: do not answer; the task is being cancelled on the delegate queue.
        case abandon
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome: Outcome?
        var task: URLSessionTask?
        var timer: Task<Void, Never>?
        /// The request of the current hop, as sent.
        var hop: URLRequest
        var response: HTTPURLResponse?
        var body = Data()
        /// Body bytes received for the current response (in ``body`` or in the body file).
        var received: Int64 = 0
        /// The file the current hop's request body is uploaded from, if any.
        var hopBodyFile: URL?
        /// The open body file, when a data task's response body goes to ``URLSessionTransfer/bodyFileURL``.
        var bodyFile: FileHandle?
        /// Whether a download task's body file was moved to ``URLSessionTransfer/bodyFileURL``.
        var downloaded = false
        var redirects = 0
        var stripsCredentials = false
        /// The caller's own `Cookie` field, until a redirect leaves its origin.
        var callerCookie: String?
        /// A 307/308 with a body that URLSession would drop: sent again by us once the 3xx completes.
        var pendingReissue: URLRequest?
        var rejectedChallenge = false
    }

    /// The request as the caller gave it; every response carries it.
    let request: HTTPRequest
    /// Where the response body is written, or `nil` to keep it in memory.
    let bodyFileURL: URL?
    /// The size of the request body, for upload progress.
    private let requestBodySize: Int64?
    private let progress: TransferProgressReporter?
    private let redirectPolicy: RedirectPolicy
    private let maxResponseBytes: Int?
    private let cancelOnDelegateQueue: @Sendable (URLSessionTask) -> Void
    private let state: Lock<State>

    init(
        request: HTTPRequest,
        firstHop: URLSessionHop,
        requestBodySize: Int64?,
        configuration: URLSessionHTTPClient.Configuration,
        progress: TransferProgressReporter?,
        cancelOnDelegateQueue: @escaping @Sendable (URLSessionTask) -> Void
    ) {
        self.request = request
        if case .file(let url, _) = request.responseDestination {
            bodyFileURL = url
        } else {
            bodyFileURL = nil
        }
        self.requestBodySize = requestBodySize
        self.progress = progress
        redirectPolicy = configuration.redirectPolicy
        maxResponseBytes = configuration.maxResponseBytes
        self.cancelOnDelegateQueue = cancelOnDelegateQueue
        var initial = State(hop: firstHop.request, callerCookie: firstHop.request.value(forHTTPHeaderField: "Cookie"))
        initial.hopBodyFile = firstHop.bodyFile
        state = Lock(initial)
    }

    // MARK: Caller side

    /// Stores the caller's continuation. Returns `false` (and resumes it) when the call already ended, for example
    /// because the task was cancelled before it started.
    func install(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
        let ended: Outcome? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        guard let ended else { return true }
        continuation.resume(returning: ended)
        return false
    }

    /// Makes `task` (not resumed yet) the current hop's task. Returns `false` when the call already ended.
    func attach(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            guard state.outcome == nil else { return false }
            state.task = task
            return true
        }
    }

    /// Ends the call with ``APIClientError/timeout`` at `deadline` unless it ended before.
    func arm(deadline: ContinuousClock.Instant) {
        let timer = Task { [weak self] in
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                return
            }
            self?.finish(.failure(.timeout))
        }
        let ended = state.withLock { state in
            guard state.outcome == nil else { return true }
            state.timer = timer
            return false
        }
        if ended { timer.cancel() }
    }

    /// Ends the call with `outcome` unless it already ended; the first outcome wins.
    func finish(_ outcome: Outcome) {
        typealias Ending = (CheckedContinuation<Outcome, Never>?, URLSessionTask?, Task<Void, Never>?)
        let ending = state.withLock { state -> Ending? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            let ending = (state.continuation, state.task, state.timer)
            state.continuation = nil
            state.task = nil
            state.timer = nil
            state.body = Data()
            state.response = nil
            state.pendingReissue = nil
            if let file = state.bodyFile {
                try? file.close()
                state.bodyFile = nil
            }
            if case .failure = outcome, let bodyFileURL {
                // A partial body file never outlives a failed call.
                try? FileManager.default.removeItem(at: bodyFileURL)
            }
            return ending
        }
        guard let (continuation, task, timer) = ending else { return }
        timer?.cancel()
        if case .failure = outcome, let task { cancelOnDelegateQueue(task) }
        continuation?.resume(returning: outcome)
    }

    // MARK: Session delegate side (all on the session's serial delegate queue)

    /// A response head arrived: whether to let the body come.
    func didReceive(_ response: HTTPURLResponse) -> Answer<Void> {
        let verdict = state.withLock { state -> Result<Answer<Void>, APIClientError> in
            guard state.outcome == nil else { return .success(.abandon) }
            guard state.pendingReissue == nil else { return .success(.answer(())) }
            state.response = response
            state.body = Data()
            state.received = 0
            let expected = response.expectedContentLength
            let isEncoded = response.value(forHTTPHeaderField: "Content-Encoding") != nil
            if let maxResponseBytes, expected > maxResponseBytes, !isEncoded {
                return .failure(.networkError(NetworkFailure(kind: .responseTooLarge)))
            }
            if let bodyFileURL {
                if let failure = openBodyFile(at: bodyFileURL, state: &state) { return .failure(failure) }
            } else if expected > 0 {
                state.body.reserveCapacity(Int(min(expected, Int64(maxResponseBytes ?? 64 << 20))))
            }
            return .success(.answer(()))
        }
        switch verdict {
        case .success(let answer):
            return answer
        case .failure(let error):
            finish(.failure(error))
            return .abandon
        }
    }

    /// Creates the body file, or empties it for a new response; the error when that fails.
    private func openBodyFile(at url: URL, state: inout State) -> APIClientError? {
        do {
            if let file = state.bodyFile {
                try file.truncate(atOffset: 0)
                return nil
            }
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            state.bodyFile = try FileHandle(forWritingTo: url)
            return nil
        } catch {
            return .downloadDestinationError(DownloadDestinationError(kind: .cannotWrite, url: url, reason: "\(error)"))
        }
    }

    /// Body bytes arrived (already decoded from gzip/deflate/br by the platform): kept in memory or written to the
    /// body file as they come.
    func didReceive(_ data: Data) {
        let step = state.withLock { state -> Result<TransferProgress?, APIClientError> in
            guard state.outcome == nil, state.pendingReissue == nil, let response = state.response else {
                return .success(nil)
            }
            if let maxResponseBytes, state.received + Int64(data.count) > maxResponseBytes {
                return .failure(.networkError(NetworkFailure(kind: .responseTooLarge)))
            }
            if let file = state.bodyFile {
                do {
                    try file.write(contentsOf: data)
                } catch {
                    let url = bodyFileURL ?? URL(fileURLWithPath: "/")
                    return .failure(
                        .downloadDestinationError(
                            DownloadDestinationError(kind: .cannotWrite, url: url, reason: "\(error)")))
                }
            } else {
                state.body.append(data)
            }
            state.received += Int64(data.count)
            return .success(
                TransferProgress(
                    direction: .download,
                    completedBytes: state.received,
                    totalBytes: Self.expectedBodySize(of: response)
                )
            )
        }
        switch step {
        case .success(let report):
            // Reported outside the lock: the handler may cancel the call, which takes the lock.
            if let report { progress?.report(report) }
        case .failure(let error):
            finish(.failure(error))
        }
    }

    /// A download task wrote body bytes to its file (on FoundationNetworking's own thread; this is the notice).
    func didWrite(totalBytesWritten: Int64, expected: Int64, response: HTTPURLResponse?) {
        let step = state.withLock { state -> Result<TransferProgress?, APIClientError> in
            guard state.outcome == nil, state.pendingReissue == nil else { return .success(nil) }
            if let maxResponseBytes, totalBytesWritten > maxResponseBytes {
                return .failure(.networkError(NetworkFailure(kind: .responseTooLarge)))
            }
            let encoded = response?.value(forHTTPHeaderField: "Content-Encoding") != nil
            if let maxResponseBytes, expected > maxResponseBytes, !encoded {
                return .failure(.networkError(NetworkFailure(kind: .responseTooLarge)))
            }
            state.received = totalBytesWritten
            let total = response.flatMap(Self.expectedBodySize(of:)) ?? (expected > 0 && !encoded ? expected : nil)
            return .success(
                TransferProgress(direction: .download, completedBytes: totalBytesWritten, totalBytes: total))
        }
        switch step {
        case .success(let report):
            if let report { progress?.report(report) }
        case .failure(let error):
            finish(.failure(error))
        }
    }

    /// A download task finished its body in the file at `location` (deleted once this returns): it is moved to
    /// ``bodyFileURL``.
    func didFinishDownloading(to location: URL) {
        let failure = state.withLock { state -> APIClientError? in
            guard state.outcome == nil, state.pendingReissue == nil, let bodyFileURL else { return nil }
            do {
                try? FileManager.default.removeItem(at: bodyFileURL)
                try FileManager.default.moveItem(at: location, to: bodyFileURL)
                let size = try FileManager.default.attributesOfItem(atPath: bodyFileURL.path)[.size] as? NSNumber
                state.received = size?.int64Value ?? state.received
                state.downloaded = true
                return nil
            } catch {
                return .downloadDestinationError(
                    DownloadDestinationError(kind: .cannotWrite, url: bodyFileURL, reason: "\(error)"))
            }
        }
        if let failure { finish(.failure(failure)) }
    }

    /// Request body bytes went out.
    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        guard let progress else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : requestBodySize
        progress.report(.upload, completed: totalBytesSent, total: total)
    }

    /// The size of the decoded body `response` announces, or `nil` when it does not (chunked, or compressed: the
    /// `Content-Length` then counts the compressed bytes).
    private static func expectedBodySize(of response: HTTPURLResponse) -> Int64? {
        guard response.value(forHTTPHeaderField: "Content-Encoding") == nil, response.expectedContentLength >= 0 else {
            return nil
        }
        return response.expectedContentLength
    }

    /// URLSession is about to follow a redirect from `response` to `proposed`: the request to follow with, or `nil`
    /// not to follow (the 3xx then completes the task).
    ///
    /// `storedCookies` is the `Cookie` field the session's cookie storage has for the target, when URLSession does
    /// not add it itself (FoundationNetworking leaves it out of a redirect a delegate approves).
    func willRedirect(
        _ response: HTTPURLResponse,
        to proposed: URLRequest,
        storedCookies: String? = nil
    ) -> Answer<URLRequest?> {
        let answer = state.withLock { state -> Answer<URLRequest?>? in
            guard state.outcome == nil else { return .abandon }
            guard let target = proposed.url else { return .answer(nil) }
            state.redirects += 1
            if state.redirects > redirectPolicy.maxRedirects {
                // "Do not follow" hands back the 3xx; a spent limit is an error.
                return redirectPolicy.followsRedirects ? nil : .answer(nil)
            }
            if RedirectRules.crossesOrigin(from: response.url ?? state.hop.url, to: target) {
                state.stripsCredentials = true
                state.callerCookie = nil
            }
            let reissues =
                RedirectRules.keepsMethodAndBody(state.hop, statusCode: response.statusCode)
                && (!(state.hop.httpBody?.isEmpty ?? true) || state.hopBodyFile != nil)
            var next = reissues ? RedirectRules.reissue(state.hop, to: target) : proposed
            if state.stripsCredentials { next = RedirectRules.strippingCredentials(next) }
            if !reissues, let storedCookies {
                // A re-issued hop is a new task: URLSession adds the stored cookies to it by itself.
                let cookie = [state.callerCookie, storedCookies].compactMap { $0 }.joined(separator: "; ")
                next.setValue(cookie, forHTTPHeaderField: "Cookie")
            }
            if reissues {
                // URLSession would send this hop without its body: let the 3xx complete and send it ourselves.
                state.pendingReissue = next
                return .answer(nil)
            }
            state.hop = next
            // URLSession follows this one itself; a 301/302/303 does not carry an uploaded file along.
            state.hopBodyFile = nil
            return .answer(next)
        }
        guard let answer else {
            finish(.failure(.networkError(NetworkFailure(kind: .tooManyRedirects))))
            return .abandon
        }
        return answer
    }

    /// The server asked for credentials. The transport has none to give (authentication is the interceptors'
    /// job): the challenge is rejected and the 401 or 407 becomes the response.
    func didReceiveAuthenticationChallenge() -> Answer<Void> {
        state.withLock { state in
            guard state.outcome == nil else { return .abandon }
            state.rejectedChallenge = true
            return .answer(())
        }
    }

    /// The current hop's task completed. Returns the next hop to send (a re-issued 307/308, its body file sent
    /// again), or `nil` when the call ended.
    func didComplete(error: (any Error)?, response taskResponse: HTTPURLResponse? = nil) -> URLSessionHop? {
        enum Step {
            case next(URLSessionHop)
            case end(Outcome)
            case none
        }
        let step = state.withLock { state -> Step in
            guard state.outcome == nil else { return .none }
            if let reissue = state.pendingReissue, error == nil {
                state.pendingReissue = nil
                state.hop = reissue
                state.task = nil
                state.response = nil
                state.body = Data()
                state.received = 0
                return .next(URLSessionHop(request: reissue, bodyFile: state.hopBodyFile))
            }
            if state.response == nil {
                // A download task reports its response head only here.
                state.response = taskResponse
            }
            if let response = state.response {
                // On Linux a rejected authentication challenge completes the task with `cancelled` after
                // delivering the 401: that is the response.
                let challengeEnded = state.rejectedChallenge && (error as? URLError)?.code == .cancelled
                if error == nil || challengeEnded {
                    if let bodyFileURL, state.bodyFile == nil, !state.downloaded {
                        // A download task that wrote no body (HEAD, 204, a rejected challenge): an empty file.
                        guard FileManager.default.createFile(atPath: bodyFileURL.path, contents: nil) else {
                            return .end(
                                .failure(
                                    .downloadDestinationError(
                                        DownloadDestinationError(kind: .cannotWrite, url: bodyFileURL))))
                        }
                    }
                    return .end(.success(makeResponse(response, body: state.body, received: state.received)))
                }
            }
            if let error {
                return .end(
                    .failure(
                        URLErrorMapping.apiClientError(
                            // A download task has no response-head callback: body bytes written prove one came.
                            for: error, afterResponseHead: state.response != nil || state.received > 0)))
            }
            return .end(.failure(.networkError(NetworkFailure(kind: .badServerResponse))))
        }
        switch step {
        case .next(let hop): return hop
        case .end(let outcome):
            if case .success(let response) = outcome { reportCompletion(of: response) }
            finish(outcome)
        case .none: break
        }
        return nil
    }

    /// The last reports of a successful call: every byte of the request body sent, every byte of the response body
    /// received (the total is known now, whatever the headers said).
    private func reportCompletion(of response: HTTPResponse) {
        guard let progress else { return }
        if let requestBodySize {
            progress.report(.upload, completed: requestBodySize, total: requestBodySize)
        }
        let received = state.withLock { $0.received }
        progress.report(.download, completed: received, total: received)
    }

    private func makeResponse(_ response: HTTPURLResponse, body: Data, received: Int64) -> HTTPResponse {
        let hasFile = bodyFileURL != nil
        return HTTPResponse(
            statusCode: response.statusCode,
            headers: ResponseHeaders.headers(of: response, bodyCount: Int(received)),
            body: hasFile ? Data() : body,
            request: request,
            url: response.url,
            bodyFileURL: hasFile ? bodyFileURL : nil
        )
    }
}
