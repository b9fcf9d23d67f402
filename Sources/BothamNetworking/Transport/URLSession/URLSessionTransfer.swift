import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ``URLSessionHTTPClient/send(_:)`` call: its state from the first hop to the last byte, across redirects and
/// re-issued 307/308 requests, and the single place where the call ends.
///
/// Every path that ends the call — the body completing, an error, a redirect limit, the size limit, a time limit,
/// the caller's cancellation — goes through ``finish(_:)``, which resumes the caller exactly once, stops the
/// timeouts and, on failure, has the `URLSessionTask` cancelled. Callbacks that arrive afterwards are ignored.
///
/// It composes one small type per concern: ``URLSessionRedirectHops`` (the current hop, redirects, re-issued
/// 307/308s), ``URLSessionSegmentedBody`` (byte ranges of a large body going to a file), ``URLSessionResponseBody``
/// (the response and where its body goes, within the size limit), ``URLSessionChallenges`` (rejected
/// authentication challenges), ``URLSessionTimeouts`` (the attempt's deadline and the idle timeout) and, for a
/// streamed body, ``URLSessionBodyStreamer``.
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

    /// The call's state: how it ends, plus one small value per concern, all behind one lock.
    private struct State {
        /// The caller, until the call ends (or, streaming, until the head is delivered).
        var continuation: CheckedContinuation<Outcome, Never>?
        /// How the call ended, once it has.
        var outcome: Outcome?
        /// The current hop's task.
        var task: URLSessionTask?
        var hops: URLSessionRedirectHops
        var segments: URLSessionSegmentedBody
        var body: URLSessionResponseBody
        var challenges = URLSessionChallenges()
        /// When the current hop started and its head arrived, for the response's ``HTTPResponse/Timings``.
        var timing = URLSessionHopTiming()
    }

    /// The request as the caller gave it; every response carries it.
    let request: HTTPRequest
    /// The hop to start with.
    let firstHop: URLSessionHop
    /// The size of the request body, for upload progress.
    private let requestBodySize: Int64?
    private let progress: TransferProgress.Reporter?
    /// The call's `RedirectHopObserver`, read when the call started.
    private let hopObserver: RedirectHopObserver?
    private let redirectPolicy: RedirectPolicy
    private let timeouts: URLSessionTimeouts
    private let cancelOnDelegateQueue: @Sendable (URLSessionTask) -> Void
    private let state: Lock<State>
    /// The body's way to a streaming caller, for a ``ResponseBodyDestination/stream`` request.
    private let streamer: URLSessionBodyStreamer?
    /// Runs once when the call has ended (a streaming call's own session is invalidated).
    private let onEnd: (@Sendable () -> Void)?
    /// The body actually sent (a spooled streamed body's temporary file lives as long as it).
    private let sentBody: HTTPBody?

    /// - Parameter deadline: when the attempt's limit runs out (``TransportLimits/attemptLimit(for:)`` from the
    ///   start of the call), if it has one.
    init(
        request: HTTPRequest,
        firstHop: URLSessionHop,
        requestBodySize: Int64?,
        configuration: URLSessionHTTPClient.Configuration,
        deadline: ContinuousClock.Instant?,
        progress: TransferProgress.Reporter?,
        hopObserver: RedirectHopObserver? = nil,
        cancelOnDelegateQueue: @escaping @Sendable (URLSessionTask) -> Void,
        onEnd: (@Sendable () -> Void)? = nil,
        retaining sentBody: HTTPBody? = nil
    ) {
        self.request = request
        self.onEnd = onEnd
        self.sentBody = sentBody
        let timeouts = URLSessionTimeouts(deadline: deadline, idleTimeout: configuration.limits.idleLimit(for: request))
        self.timeouts = timeouts
        streamer =
            request.responseDestination == .stream
            ? URLSessionBodyStreamer(timeouts: timeouts, unreadLimit: configuration.limits.maxResponseBytes) : nil
        self.requestBodySize = requestBodySize
        self.progress = progress
        self.hopObserver = hopObserver
        redirectPolicy = configuration.redirectPolicy
        self.cancelOnDelegateQueue = cancelOnDelegateQueue
        let bodyFileURL = request.responseDestination.fileURL
        var firstRequest = firstHop.request
        let segments = URLSessionSegmentedBody(
            firstRequest: &firstRequest,
            goesToFile: bodyFileURL != nil,
            hasBodyFile: firstHop.bodyFile != nil,
            segmentBytes: URLSessionDownloadSegments.segmentBytes(
                for: request, configured: configuration.downloadSegmentBytes)
        )
        let first = URLSessionHop(request: firstRequest, bodyFile: firstHop.bodyFile)
        self.firstHop = first
        // The call needs URLSession's thread until it ends (``finish(_:)`` gives it up).
        URLSessionThreadGate.shared.acquire()
        state = Lock(
            State(
                hops: URLSessionRedirectHops(first: first),
                segments: segments,
                body: URLSessionResponseBody(
                    fileURL: bodyFileURL, limit: configuration.limits.bodyLimit(for: request),
                    isHeadRequest: request.method == .head)
            )
        )
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
        let attached = state.withLock { state in
            guard state.outcome == nil else { return false }
            state.task = task
            // The next byte-range segment of a body is not a new hop: its head arrived already.
            if state.body.response == nil { state.timing.hopStarted() }
            return true
        }
        if attached { timeouts.noteActivity() }
        return attached
    }

    /// Starts the time limits: running out ends the call with ``APIClientError/timeout`` unless it ended before.
    func startTimeouts() {
        timeouts.start { [weak self] in self?.finish(.failure(.timeout)) }
    }

    /// Ends the call with `outcome` unless it already ended; the first outcome wins.
    func finish(_ outcome: Outcome) {
        typealias Ending = (CheckedContinuation<Outcome, Never>?, URLSessionTask?)
        let failed: Bool
        if case .failure = outcome { failed = true } else { failed = false }
        let ending = state.withLock { state -> Ending? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            let ending = (state.continuation, state.task)
            state.continuation = nil
            state.task = nil
            state.hops.pendingReissue = nil
            state.body.close()
            return ending
        }
        guard let (continuation, task) = ending else { return }
        timeouts.stop()
        if failed, let task { cancelOnDelegateQueue(task) }
        if case .failure(let error) = outcome { streamer?.end(error) } else { streamer?.end(nil) }
        continuation?.resume(returning: outcome)
        onEnd?()
        URLSessionThreadGate.shared.release()
    }

    /// Whether URLSession should wait before it queues more of this call's callbacks: a streaming caller is behind.
    var streamCallerIsBehind: Bool {
        streamer?.callerIsBehind ?? false
    }

    /// Hands a streaming call's head to the caller, with the body to come as a stream; the attempt's time limit
    /// stops here (only the idle timeout between chunks applies from now on).
    private func deliverHead(_ response: HTTPURLResponse, streamer: URLSessionBodyStreamer) {
        let body = streamer.makeStream(onCancel: { [weak self] in self?.finish(.failure(.cancelled)) })
        let head = HTTPResponse(
            statusCode: response.statusCode,
            headers: URLResponseHeaderConverter.headers(of: response, bodyCount: -1),
            request: request,
            url: response.url,
            bodyStream: body,
            timings: state.withLock { $0.timing.timings(bodyEnded: nil) }
        )
        timeouts.dropDeadline()
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: .success(head))
    }

    // MARK: Session delegate side (all on the session's serial delegate queue)

    /// A response head arrived: whether to let the body come.
    func didReceive(_ response: HTTPURLResponse) -> Answer<Void> {
        timeouts.noteActivity()
        let streamed = streamer != nil
        let verdict = state.withLock { state -> Result<Answer<Void>, APIClientError> in
            guard state.outcome == nil else { return .success(.abandon) }
            guard state.hops.pendingReissue == nil else { return .success(.answer(())) }
            switch state.segments.head(response, received: state.body.received) {
            case .response(let presented):
                if let failure = state.body.start(presented, streamed: streamed) { return .failure(failure) }
                if !(100..<200).contains(response.statusCode) { state.timing.headArrived() }
                return .success(.answer(()))
            case .continuation:
                return .success(.answer(()))
            case .mismatch(let mismatch):
                return .failure(
                    .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: mismatch)))
            case .retryWithoutRange:
                // Its body is ignored; the request goes again once this task completes.
                state.hops.pendingReissue = URLSessionDownloadSegments.withoutRange(state.hops.current)
                return .success(.answer(()))
            }
        }
        switch verdict {
        case .success(let answer):
            // FoundationNetworking reports an interim 1xx head as a response too; the final one follows.
            if let streamer, case .answer = answer, !(100..<200).contains(response.statusCode),
                !streamer.hasDeliveredHead,
                state.withLock({ $0.hops.pendingReissue == nil && $0.body.response != nil })
            {
                deliverHead(response, streamer: streamer)
            }
            return answer
        case .failure(let error):
            finish(.failure(error))
            return .abandon
        }
    }

    /// Body bytes arrived (already decoded from gzip/deflate/br by the platform): kept in memory or written to the
    /// body file as they come.
    func didReceive(_ data: Data) {
        if let streamer, streamer.hasDeliveredHead {
            if let failure = streamer.deliver(data) { finish(.failure(failure)) }
            return
        }
        timeouts.noteActivity()
        let step = state.withLock { state -> Result<TransferProgress?, APIClientError> in
            guard state.outcome == nil, state.hops.pendingReissue == nil, let response = state.body.response else {
                return .success(nil)
            }
            guard state.body.admits(data.count) else {
                return .failure(.networkError(APIClientError.NetworkFailure(kind: .responseTooLarge)))
            }
            if state.segments.overrunsSegment(received: state.body.received, adding: data.count) {
                // More than the segment's own Content-Range announced.
                return .failure(.networkError(APIClientError.NetworkFailure(kind: .badServerResponse)))
            }
            if let failure = state.body.append(data) { return .failure(failure) }
            return .success(
                TransferProgress(
                    direction: .download,
                    completedBytes: state.body.received,
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

    /// Request body bytes went out.
    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        timeouts.noteActivity()
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
        timeouts.noteActivity()
        let decision = state.withLock { state -> URLSessionRedirectHops.Decision? in
            guard state.outcome == nil else { return nil }
            let decision = state.hops.redirect(
                from: response, proposed: proposed, storedCookies: storedCookies, policy: redirectPolicy,
                hopObserver: hopObserver, answering: request)
            // URLSession sends the next hop on the same task: its timings start now.
            if case .follow = decision { state.timing.hopStarted() }
            // Not followed: the 3xx is the response, and its head is here.
            if case .decline = decision { state.timing.headArrived() }
            return decision
        }
        switch decision {
        case nil:
            return .abandon
        case .follow(let next):
            return .answer(next)
        case .decline:
            return .answer(nil)
        case .tooManyRedirects:
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects))))
            return .abandon
        case .invalid(let error):
            finish(.failure(error))
            return .abandon
        }
    }

    /// The server asked for credentials. The transport has none to give (authentication is the interceptors'
    /// job): the challenge is rejected and the 401 or 407 becomes the response.
    func didReceiveAuthenticationChallenge() -> Answer<Void> {
        state.withLock { state in
            guard state.outcome == nil else { return .abandon }
            state.challenges.reject()
            return .answer(())
        }
    }

    /// The transport rejected the server of the current hop (custom roots, pins): the task ends with
    /// `cancelled`, which the call reports as `failure`.
    func didRejectServerTrust(_ failure: TLSError) {
        state.withLock { $0.challenges.rejectServer(failure) }
    }

    /// The current hop's task completed. Returns the next hop to send (a re-issued 307/308, its body file sent
    /// again), or `nil` when the call ended.
    func didComplete(error: (any Error)?, response taskResponse: HTTPURLResponse? = nil) -> URLSessionHop? {
        enum Step {
            case next(URLSessionHop)
            case end(Outcome)
            case none
        }
        let headDelivered = streamer?.hasDeliveredHead ?? false
        let step = state.withLock { state -> Step in
            guard state.outcome == nil else { return .none }
            if headDelivered {
                // A streamed body ended: the caller already has the head. (A rejected challenge ends its task with
                // `cancelled` after the 401's body: that is a complete body.)
                if let error, !state.challenges.endedByRejection(error) {
                    return .end(.failure(URLErrorMapping.apiClientError(for: error, afterResponseHead: true)))
                }
                return .end(.success(HTTPResponse(statusCode: 0, request: request)))
            }
            if error == nil,
                let next = state.segments.nextSegmentRequest(after: state.hops.current, received: state.body.received)
            {
                // A segment is in: on to the next.
                state.task = nil
                return .next(URLSessionHop(request: next, bodyFile: nil))
            }
            if state.hops.pendingReissue != nil, error == nil, !(request.body?.isReplayable ?? true) {
                let reason = "a 307/308 asked to send the streamed request body again, and it cannot be sent twice"
                return .end(.failure(.invalidRequest(reason: reason)))
            }
            if error == nil, let reissue = state.hops.startReissue() {
                state.task = nil
                state.body.reset()
                return .next(reissue)
            }
            // A data task does not report the head of a 301/302/303/307 it does not follow: it is here.
            state.body.adopt(taskResponse)
            if let response = state.body.response {
                // On Linux a rejected authentication challenge completes the task with `cancelled` after
                // delivering the 401: that is the response.
                if error == nil, state.segments.endsShort(at: state.body.received) {
                    // A segment ended short of the body's end.
                    return .end(.failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))))
                }
                if error == nil || state.challenges.endedByRejection(error) {
                    // A response whose head never reached the delegate (a redirect not followed): an empty file.
                    if let failure = state.body.ensureFile() { return .end(.failure(failure)) }
                    let timings = state.timing.timings(bodyEnded: .now)
                    return .end(.success(makeResponse(response, body: state.body, timings: timings)))
                }
            }
            if let error {
                return .end(
                    .failure(
                        URLErrorMapping.apiClientError(
                            for: error, afterResponseHead: state.body.response != nil,
                            tlsFailure: state.challenges.tlsFailure)))
            }
            return .end(.failure(.networkError(APIClientError.NetworkFailure(kind: .badServerResponse))))
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
        let received = state.withLock { $0.body.received }
        progress.report(.download, completed: received, total: received)
    }

    private func makeResponse(
        _ response: HTTPURLResponse, body: URLSessionResponseBody, timings: HTTPResponse.Timings?
    ) -> HTTPResponse {
        let fileURL = body.fileURL
        return HTTPResponse(
            statusCode: response.statusCode,
            headers: URLResponseHeaderConverter.headers(of: response, bodyCount: Int(body.received)),
            body: fileURL == nil ? body.data : Data(),
            request: request,
            url: response.url,
            bodyFileURL: fileURL,
            timings: timings
        )
    }
}
