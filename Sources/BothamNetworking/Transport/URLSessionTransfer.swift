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
        var task: URLSessionDataTask?
        var timer: Task<Void, Never>?
        /// The request of the current hop, as sent.
        var hop: URLRequest
        var response: HTTPURLResponse?
        var body = Data()
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
    private let redirectPolicy: RedirectPolicy
    private let maxResponseBytes: Int?
    private let cancelOnDelegateQueue: @Sendable (URLSessionDataTask) -> Void
    private let state: Lock<State>

    init(
        request: HTTPRequest,
        firstHop: URLRequest,
        configuration: URLSessionHTTPClient.Configuration,
        cancelOnDelegateQueue: @escaping @Sendable (URLSessionDataTask) -> Void
    ) {
        self.request = request
        redirectPolicy = configuration.redirectPolicy
        maxResponseBytes = configuration.maxResponseBytes
        self.cancelOnDelegateQueue = cancelOnDelegateQueue
        state = Lock(State(hop: firstHop, callerCookie: firstHop.value(forHTTPHeaderField: "Cookie")))
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
    func attach(_ task: URLSessionDataTask) -> Bool {
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
        typealias Ending = (CheckedContinuation<Outcome, Never>?, URLSessionDataTask?, Task<Void, Never>?)
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
        let verdict = state.withLock { state -> Answer<Void>? in
            guard state.outcome == nil else { return .abandon }
            guard state.pendingReissue == nil else { return .answer(()) }
            state.response = response
            state.body = Data()
            let expected = response.expectedContentLength
            let isEncoded = response.value(forHTTPHeaderField: "Content-Encoding") != nil
            if let maxResponseBytes, expected > maxResponseBytes, !isEncoded { return nil }
            if expected > 0 {
                state.body.reserveCapacity(Int(min(expected, Int64(maxResponseBytes ?? 64 << 20))))
            }
            return .answer(())
        }
        guard let verdict else {
            finish(.failure(.networkError(NetworkFailure(kind: .responseTooLarge))))
            return .abandon
        }
        return verdict
    }

    /// Body bytes arrived (already decoded from gzip/deflate/br by the platform).
    func didReceive(_ data: Data) {
        let tooLarge = state.withLock { state -> Bool in
            guard state.outcome == nil, state.pendingReissue == nil else { return false }
            if let maxResponseBytes, state.body.count + data.count > maxResponseBytes { return true }
            state.body.append(data)
            return false
        }
        if tooLarge { finish(.failure(.networkError(NetworkFailure(kind: .responseTooLarge)))) }
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
                && !(state.hop.httpBody?.isEmpty ?? true)
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

    /// The current hop's task completed. Returns the next hop to send (a re-issued 307/308), or `nil` when the
    /// call ended.
    func didComplete(error: (any Error)?) -> URLRequest? {
        enum Step {
            case next(URLRequest)
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
                return .next(reissue)
            }
            if let response = state.response {
                // On Linux a rejected authentication challenge completes the task with `cancelled` after
                // delivering the 401: that is the response.
                let challengeEnded = state.rejectedChallenge && (error as? URLError)?.code == .cancelled
                if error == nil || challengeEnded {
                    return .end(.success(makeResponse(response, body: state.body)))
                }
            }
            if let error {
                return .end(
                    .failure(URLErrorMapping.apiClientError(for: error, afterResponseHead: state.response != nil)))
            }
            return .end(.failure(.networkError(NetworkFailure(kind: .badServerResponse))))
        }
        switch step {
        case .next(let request): return request
        case .end(let outcome): finish(outcome)
        case .none: break
        }
        return nil
    }

    private func makeResponse(_ response: HTTPURLResponse, body: Data) -> HTTPResponse {
        HTTPResponse(
            statusCode: response.statusCode,
            headers: ResponseHeaders.headers(of: response, bodyCount: body.count),
            body: body,
            request: request,
            url: response.url
        )
    }
}
