import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ``URLSessionHTTPClient/send(_:)`` call: its state from the first hop to the last byte, across redirects and
/// re-issued 307/308 requests, and the single place where the call ends.
///
/// Every path that ends the call — the body completing, an error, a redirect limit, the size limit, the time limit,
/// the caller's cancellation — goes through ``finish(_:)``, which resumes the caller exactly once, stops the timer
/// and, on failure, cancels the `URLSessionTask`. Callbacks that arrive afterwards are ignored.
final class URLSessionTransfer: Sendable {
    typealias Outcome = Result<HTTPResponse, APIClientError>

    /// What a redirect callback should answer.
    enum RedirectAnswer {
        /// Let URLSession follow with this request.
        case follow(URLRequest)
        /// Tell URLSession not to follow (the 3xx completes the task).
        case stop
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
        /// A 307/308 with a body that URLSession would drop: sent again by us once the 3xx completes.
        var pendingReissue: URLRequest?
        var rejectedChallenge = false
    }

    /// The request as the caller gave it; every response carries it.
    let request: HTTPRequest
    private let redirectPolicy: RedirectPolicy
    private let maxResponseBytes: Int?
    private let state: Lock<State>

    init(request: HTTPRequest, firstHop: URLRequest, configuration: URLSessionHTTPClient.Configuration) {
        self.request = request
        redirectPolicy = configuration.redirectPolicy
        maxResponseBytes = configuration.maxResponseBytes
        state = Lock(State(hop: firstHop))
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

    /// Makes `task` the current hop's task. Returns `false` when the call already ended: the caller must cancel it.
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
        let ending = state.withLock {
            state -> (CheckedContinuation<Outcome, Never>?, URLSessionDataTask?, Task<Void, Never>?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            let ending = (state.continuation, state.task, state.timer)
            state.continuation = nil
            state.task = nil
            state.timer = nil
            state.body = Data()
            state.response = nil
            return ending
        }
        guard let (continuation, task, timer) = ending else { return }
        timer?.cancel()
        if case .failure = outcome { task?.cancel() }
        continuation?.resume(returning: outcome)
    }

    // MARK: Session delegate side

    /// A response head arrived. Returns whether to let the body come.
    func didReceive(_ response: HTTPURLResponse) -> Bool {
        let verdict = state.withLock { state -> Bool? in
            guard state.outcome == nil else { return false }
            guard state.pendingReissue == nil else { return true }
            state.response = response
            state.body = Data()
            let expected = response.expectedContentLength
            let isEncoded = response.value(forHTTPHeaderField: "Content-Encoding") != nil
            if let maxResponseBytes, expected > maxResponseBytes, !isEncoded { return nil }
            if expected > 0 { state.body.reserveCapacity(Int(min(expected, Int64(maxResponseBytes ?? 64 << 20)))) }
            return true
        }
        guard let verdict else {
            finish(.failure(.networkError(NetworkFailure(kind: .responseTooLarge))))
            return false
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

    /// URLSession is about to follow a redirect from `response` to `proposed`.
    func willRedirect(_ response: HTTPURLResponse, to proposed: URLRequest) -> RedirectAnswer {
        let answer = state.withLock { state -> RedirectAnswer? in
            guard state.outcome == nil, let target = proposed.url else { return .stop }
            state.redirects += 1
            if state.redirects > redirectPolicy.maxRedirects {
                // "Do not follow" hands back the 3xx; a spent limit is an error.
                return redirectPolicy.followsRedirects ? nil : .stop
            }
            if RedirectRules.isCrossOrigin(response.url ?? state.hop.url, target) {
                state.stripsCredentials = true
            }
            var next: URLRequest
            let hasBody = !(state.hop.httpBody?.isEmpty ?? true)
            if RedirectRules.keepsMethodAndBody(response.statusCode) && hasBody {
                next = RedirectRules.reissue(state.hop, to: target)
            } else {
                next = proposed
            }
            if state.stripsCredentials { next = RedirectRules.strippingCredentials(next) }
            if RedirectRules.keepsMethodAndBody(response.statusCode) && hasBody {
                // URLSession would send this hop without its body: let the 3xx complete and send it ourselves.
                state.pendingReissue = next
                return .stop
            }
            state.hop = next
            return .follow(next)
        }
        guard let answer else {
            finish(.failure(.networkError(NetworkFailure(kind: .tooManyRedirects))))
            return .stop
        }
        return answer
    }

    /// The server asked for credentials. The transport has none to give (authentication is the interceptors'
    /// job), so the challenge is rejected and the 401 or 407 is the response.
    func didReceiveAuthenticationChallenge() {
        state.withLock { $0.rejectedChallenge = true }
    }

    /// The current hop's task completed. Returns the next hop to send (a re-issued 307/308), or `nil` when the
    /// call ended.
    func didComplete(error: (any Error)?) -> URLRequest? {
        let next = state.withLock { state -> URLRequest? in
            guard state.outcome == nil, let reissue = state.pendingReissue else { return nil }
            state.pendingReissue = nil
            state.hop = reissue
            state.task = nil
            state.response = nil
            state.body = Data()
            return reissue
        }
        if let next { return next }
        let result = state.withLock { state -> Outcome? in
            guard state.outcome == nil else { return nil }
            if let response = state.response {
                // On Linux a rejected authentication challenge completes the task with `cancelled` after
                // delivering the 401: that is the response.
                let challengeEnded = state.rejectedChallenge && (error as? URLError)?.code == .cancelled
                if error == nil || challengeEnded {
                    return .success(makeResponse(response, body: state.body))
                }
            }
            if let error {
                return .failure(URLErrorMapping.apiClientError(for: error, afterResponseHead: state.response != nil))
            }
            return .failure(.networkError(NetworkFailure(kind: .badServerResponse)))
        }
        if let result { finish(result) }
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
