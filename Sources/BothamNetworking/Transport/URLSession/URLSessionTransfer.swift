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
        /// The open body file, when the response body goes to ``URLSessionTransfer/bodyFileURL``.
        var bodyFile: FileHandle?
        /// The segment size the first hop asked for, until its response head arrives (a body going to a file).
        var firstSegmentBytes: Int64?
        /// A body file fetched in segments, one task each.
        var segments: URLSessionDownloadSegments?
        /// A later segment's request is out: its response head continues the body instead of starting a new one.
        var awaitingSegmentHead = false
        var redirects = 0
        var stripsCredentials = false
        /// The caller's own `Cookie` field, until a redirect leaves its origin.
        var callerCookie: String?
        /// A 307/308 with a body that URLSession would drop: sent again by us once the 3xx completes.
        var pendingReissue: URLRequest?
        var rejectedChallenge = false
        /// A streaming call's head has gone to the caller: the body goes to ``URLSessionTransfer/streamer``.
        var headDelivered = false
    }

    /// The request as the caller gave it; every response carries it.
    let request: HTTPRequest
    /// The hop to start with.
    let firstHop: URLSessionHop
    /// Where the response body is written, or `nil` to keep it in memory.
    let bodyFileURL: URL?
    /// The size of the request body, for upload progress.
    private let requestBodySize: Int64?
    private let progress: TransferProgressReporter?
    private let redirectPolicy: RedirectPolicy
    private let maxResponseBytes: Int?
    private let cancelOnDelegateQueue: @Sendable (URLSessionTask) -> Void
    private let state: Lock<State>
    /// The body's way to a streaming caller, for a ``ResponseBodyDestination/stream`` request.
    private let streamer: URLSessionBodyStreamer?
    /// Runs once when the call has ended (a streaming call's own session is invalidated).
    private let onEnd: (@Sendable () -> Void)?
    /// The body actually sent (a spooled streamed body's temporary file lives as long as it).
    private let sentBody: HTTPBody?

    init(
        request: HTTPRequest,
        firstHop: URLSessionHop,
        requestBodySize: Int64?,
        configuration: URLSessionHTTPClient.Configuration,
        progress: TransferProgressReporter?,
        cancelOnDelegateQueue: @escaping @Sendable (URLSessionTask) -> Void,
        onEnd: (@Sendable () -> Void)? = nil,
        retaining sentBody: HTTPBody? = nil
    ) {
        self.request = request
        self.onEnd = onEnd
        self.sentBody = sentBody
        streamer =
            request.responseDestination == .stream
            ? URLSessionBodyStreamer(idleTimeout: request.timeout ?? configuration.defaultTimeout) : nil
        bodyFileURL = request.responseDestination.fileURL
        self.requestBodySize = requestBodySize
        self.progress = progress
        redirectPolicy = configuration.redirectPolicy
        maxResponseBytes =
            request.responseDestination.fileURL == nil
            ? configuration.maxResponseBytes : configuration.maxFileResponseBytes
        self.cancelOnDelegateQueue = cancelOnDelegateQueue
        var firstRequest = firstHop.request
        var firstSegmentBytes: Int64?
        if bodyFileURL != nil, firstHop.bodyFile == nil, let segmentBytes = configuration.downloadSegmentBytes,
            let ranged = URLSessionDownloadSegments.firstRequest(for: firstRequest, segmentBytes: segmentBytes)
        {
            firstRequest = ranged
            firstSegmentBytes = segmentBytes
        }
        self.firstHop = URLSessionHop(request: firstRequest, bodyFile: firstHop.bodyFile)
        var initial = State(hop: firstRequest, callerCookie: firstRequest.value(forHTTPHeaderField: "Cookie"))
        initial.hopBodyFile = firstHop.bodyFile
        initial.firstSegmentBytes = firstSegmentBytes
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
            // A partial body file is left where it is: the client owns it (`DownloadFiles` removes it when the call
            // ends), and a transport never deletes the file it was told to write.
            return ending
        }
        guard let (continuation, task, timer) = ending else { return }
        timer?.cancel()
        if case .failure = outcome, let task { cancelOnDelegateQueue(task) }
        if case .failure(let error) = outcome { streamer?.end(error) } else { streamer?.end(nil) }
        continuation?.resume(returning: outcome)
        onEnd?()
    }

    /// Hands a streaming call's head to the caller, with the body to come as a stream; the call's time limit
    /// stops here (only the idle timeout between chunks applies from now on).
    private func deliverHead(_ response: HTTPURLResponse, streamer: URLSessionBodyStreamer) {
        let body = streamer.makeStream(
            onCancel: { [weak self] in self?.finish(.failure(.cancelled)) },
            onIdleTimeout: { [weak self] in self?.finish(.failure(.timeout)) }
        )
        let head = HTTPResponse(
            statusCode: response.statusCode,
            headers: ResponseHeaders.headers(of: response, bodyCount: -1),
            request: request,
            url: response.url,
            bodyStream: body
        )
        let (continuation, timer) = state.withLock { state in
            state.headDelivered = true
            let handOver = (state.continuation, state.timer)
            state.continuation = nil
            state.timer = nil
            return handOver
        }
        timer?.cancel()
        continuation?.resume(returning: .success(head))
    }

    // MARK: Session delegate side (all on the session's serial delegate queue)

    /// A response head arrived: whether to let the body come.
    func didReceive(_ response: HTTPURLResponse) -> Answer<Void> {
        let verdict = state.withLock { state -> Result<Answer<Void>, APIClientError> in
            guard state.outcome == nil else { return .success(.abandon) }
            guard state.pendingReissue == nil else { return .success(.answer(())) }
            var response = response
            if let segmentBytes = state.firstSegmentBytes {
                state.firstSegmentBytes = nil
                switch URLSessionDownloadSegments.answer(to: response, segmentBytes: segmentBytes) {
                case .whole:
                    break
                case .complete(let presented):
                    response = presented
                case .segmented(let segments, let presented):
                    response = presented
                    state.segments = segments
                case .retryWithoutRange:
                    // Its body is ignored; the request goes again once this task completes.
                    state.pendingReissue = URLSessionDownloadSegments.withoutRange(state.hop)
                    return .success(.answer(()))
                }
            } else if state.awaitingSegmentHead {
                // The next segment of the body already under way: it must be the same representation.
                state.awaitingSegmentHead = false
                if let mismatch = state.segments?.accept(response, at: state.received) {
                    return .failure(.networkError(NetworkFailure(kind: .connectionLost, underlying: mismatch)))
                }
                return .success(.answer(()))
            }
            state.response = response
            state.body = Data()
            state.received = 0
            let expected = response.expectedContentLength
            let isEncoded = response.value(forHTTPHeaderField: "Content-Encoding") != nil
            if streamer != nil { return .success(.answer(())) }
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
            // FoundationNetworking reports an interim 1xx head as a response too; the final one follows.
            if let streamer, case .answer = answer, !(100..<200).contains(response.statusCode),
                state.withLock({ $0.pendingReissue == nil && $0.response != nil && !$0.headDelivered })
            {
                deliverHead(response, streamer: streamer)
            }
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
        if let streamer, state.withLock({ $0.headDelivered && $0.outcome == nil }) {
            streamer.deliver(data)
            return
        }
        let step = state.withLock { state -> Result<TransferProgress?, APIClientError> in
            guard state.outcome == nil, state.pendingReissue == nil, let response = state.response else {
                return .success(nil)
            }
            if let maxResponseBytes, state.received + Int64(data.count) > maxResponseBytes {
                return .failure(.networkError(NetworkFailure(kind: .responseTooLarge)))
            }
            if let segments = state.segments, state.received + Int64(data.count) > segments.end {
                // More than the segment's own Content-Range announced.
                return .failure(.networkError(NetworkFailure(kind: .badServerResponse)))
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
            // The target as RFC 3986 §5 resolves `Location` (URLSession's own resolution loses the path of a
            // query-only one); an unusable `Location` is not followed, as on native.
            let answered = response.url ?? state.hop.url
            guard let answered,
                let target = RedirectRules.target(
                    of: response.value(forHTTPHeaderField: "Location"), relativeTo: answered)
            else { return .answer(nil) }
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
            next.url = target
            if !RedirectRules.keepsMethodAndBody(state.hop, statusCode: response.statusCode) {
                next = RedirectRules.droppingBodyFields(next)
            }
            if state.stripsCredentials {
                next = RedirectRules.strippingCredentials(next, sensitiveFields: redirectPolicy.sensitiveFields)
            }
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
            if state.headDelivered {
                // A streamed body ended: the caller already has the head. (A rejected challenge ends its task with
                // `cancelled` after the 401's body: that is a complete body.)
                let challengeEnded = state.rejectedChallenge && (error as? URLError)?.code == .cancelled
                if let error, !challengeEnded {
                    return .end(.failure(URLErrorMapping.apiClientError(for: error, afterResponseHead: true)))
                }
                return .end(.success(HTTPResponse(statusCode: 0, request: request)))
            }
            if error == nil, var segments = state.segments, segments.needsNextSegment(at: state.received) {
                // A segment is in: on to the next.
                let next = segments.request(after: state.hop, from: state.received)
                state.segments = segments
                state.awaitingSegmentHead = true
                state.task = nil
                return .next(URLSessionHop(request: next, bodyFile: nil))
            }
            if state.pendingReissue != nil, error == nil, !(request.body?.isReplayable ?? true) {
                let reason = "a 307/308 asked to send the streamed request body again, and it cannot be sent twice"
                return .end(.failure(.invalidRequest(reason: reason)))
            }
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
                // A data task does not report the head of a 301/302/303/307 it does not follow: it is here.
                state.response = taskResponse
            }
            if let response = state.response {
                // On Linux a rejected authentication challenge completes the task with `cancelled` after
                // delivering the 401: that is the response.
                let challengeEnded = state.rejectedChallenge && (error as? URLError)?.code == .cancelled
                if let segments = state.segments, error == nil, state.received != segments.totalBytes {
                    // A segment ended short of the body's end.
                    return .end(.failure(.networkError(NetworkFailure(kind: .connectionLost))))
                }
                if error == nil || challengeEnded {
                    if let bodyFileURL, state.bodyFile == nil {
                        // A response whose head never reached the delegate (a redirect not followed): an empty file.
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
                            for: error, afterResponseHead: state.response != nil)))
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
