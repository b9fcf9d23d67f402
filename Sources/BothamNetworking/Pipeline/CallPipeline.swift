// One object per call, immutable: the onion's positions, the call's frames and the timeout's child task each hold
// one reference to it instead of a copy of its fourteen references (a copy of the former struct retained and
// released every one of them, about a third of the chain's retain/release traffic with 8 interceptors; BENCHMARKS.md,
// "Chain overhead, round 3").
/// Runs one call: the retry loop around one attempt, with a snapshot of every interceptor list.
///
/// Per attempt, in order: request interceptors (local, then global) on the *original* request; preparation
/// (`HTTPRequest.prepared(for:)`: URL, header and body checks — a failure ends the call and nothing is sent — and
/// the header fields the transport would add of its own) and the attempt's part file when the body goes to a file
/// (``DownloadFiles``); the `HTTPInterceptor` onion (local, then global, outermost first), whose innermost `next`
/// runs the network interceptors (local, then global, outermost first) once per send around the transport; response
/// interceptors (local, then global); and, when they are done, the retrier (if any) and the validation. A
/// ``ResponseInterceptorResult/retry`` or a retrier's ``RetryDecision/retry(after:)`` starts the next attempt while
/// the budget lasts; the sleep between attempts (on the call's clock, `CallSettings.clock`) is cancellable and
/// cancellation is never retried.
///
/// The network interceptors and the transport always receive a prepared request: the request is prepared again
/// (`prepared()`, without adding the transport's fields again) only when an interceptor changed it, before the first
/// network interceptor and before the transport. A request changed there records it
/// (`HTTPRequest.changedAfterPreparation`, in the call's `RequestPreparations`), which tells the transport to add
/// and change nothing.
final class CallPipeline: Sendable {
    let requestInterceptors: InterceptorSnapshot<any BothamRequestInterceptor>
    let responseInterceptors: InterceptorSnapshot<any BothamResponseInterceptor>
    let interceptors: InterceptorSnapshot<any HTTPInterceptor>
    /// The interceptors that run innermost, once per send, on the prepared request as it goes on the wire.
    let networkInterceptors: InterceptorSnapshot<any HTTPInterceptor>
    let transport: any HTTPClient
    /// The transport's own header fields, when it has any (looked up once per client).
    let transportFields: (any TransportHeaderDefaults)?
    let settings: CallSettings

    init(
        requestInterceptors: InterceptorSnapshot<any BothamRequestInterceptor>,
        responseInterceptors: InterceptorSnapshot<any BothamResponseInterceptor>,
        interceptors: InterceptorSnapshot<any HTTPInterceptor>,
        networkInterceptors: InterceptorSnapshot<any HTTPInterceptor>,
        transport: any HTTPClient,
        transportFields: (any TransportHeaderDefaults)?,
        settings: CallSettings
    ) {
        self.requestInterceptors = requestInterceptors
        self.responseInterceptors = responseInterceptors
        self.interceptors = interceptors
        self.networkInterceptors = networkInterceptors
        self.transport = transport
        self.transportFields = transportFields
        self.settings = settings
    }

    private enum AttemptOutcome {
        case done(Result<HTTPResponse, APIClientError>, request: HTTPRequest?)
        case retry(last: Result<HTTPResponse, APIClientError>, after: Duration)
    }

    func run(_ original: HTTPRequest) async -> Result<HTTPResponse, APIClientError> {
        guard let callTimeout = settings.callTimeout else { return await run(original, timedOut: nil) }
        // The whole call (every attempt, every sleep between them) races a timer; when the timer wins the call is
        // cancelled, and it ends (observers included) with `.timeout` instead of `.cancelled`.
        let deadline = CallDeadline()
        return await withTaskGroup(of: Result<HTTPResponse, APIClientError>?.self) { group in
            group.addTask { await self.run(original, timedOut: { deadline.hasExpired }) }
            group.addTask {
                do {
                    try await self.settings.clock.sleep(for: callTimeout)
                } catch {
                    return nil  // the call ended first, or the caller was cancelled
                }
                deadline.expire()
                return nil
            }
            while let next = await group.next() {
                group.cancelAll()
                if let result = next { return result }
            }
            return .failure(.timeout)  // not reached: the call's task always answers
        }
    }

    /// What follows an attempt: the call's result, or another attempt.
    private enum NextStep {
        case finish(Result<HTTPResponse, APIClientError>)
        case retry
    }

    // Memory: this frame, the attempt's and the onion's are alive for as long as the transport is, for every call in
    // flight, so what runs between attempts (the retrier, the checks, the sleep) is in
    // `step(after:of:context:budget:)`, whose locals exist only while it runs (BENCHMARKS.md, "Memory per concurrent
    // call").
    /// Runs the call; a call cancelled once `timedOut` says its deadline passed (the caller's timer cancelled it)
    /// ends, for its observers too, with ``APIClientError/timeout``.
    func run(
        _ original: HTTPRequest, timedOut: (@Sendable () -> Bool)?
    ) async -> Result<HTTPResponse, APIClientError> {
        // `Int.max` retries must not overflow: the most attempts saturate at `Int.max`.
        let (attempts, overflow) = max(0, settings.maxRetries).addingReportingOverflow(1)
        var context = HTTPCallContext(
            callID: HTTPCallContext.makeCallID(),
            attempt: 1,
            maxAttempts: overflow ? Int.max : attempts,
            clock: settings.clock
        )
        var files = DownloadFiles()
        // Only onion interceptors can send more than once per attempt; without them the retry loop's attempt count
        // already bounds the sends, and the call counts none.
        let budget =
            interceptors.isEmpty && networkInterceptors.isEmpty
            ? nil : SendBudget(limit: context.maxAttempts, of: context)
        var outcome: Result<HTTPResponse, APIClientError>
        attempts: while true {
            if Task.isCancelled {
                outcome = .failure(.cancelled)
                break
            }
            let attemptContext = context
            // The context is the call's for everything the attempt runs, and its storage keeps what preparation
            // establishes about the call's requests (`RequestPreparations`).
            let attempted = await HTTPCallContext.$current.withValue(attemptContext) {
                await attempt(original, context: attemptContext, files: &files, budget: budget)
            }
            let retry: (last: Result<HTTPResponse, APIClientError>, delay: Duration)
            switch attempted {
            case .retry(let last, let delay):
                retry = (last, delay)
            case .done(let result, let request):
                // Without a retrier to ask, an attempt that ends the call needs nothing asynchronous after it.
                guard let request, let retrier = settings.retrier, !Self.isCancellation(result),
                    let delay = await retryDelay(from: retrier, after: result, of: request, context: context)
                else {
                    outcome = validate(result, of: original)
                    break attempts
                }
                retry = (result, delay)
            }
            if case .finish(let result) = await step(retrying: retry, of: original, context: context, budget: budget) {
                outcome = result
                break
            }
            context = context.nextAttempt()
        }
        if case .failure(.cancelled) = outcome, timedOut?() == true { outcome = .failure(.timeout) }
        let result = files.deliver(outcome)
        for interceptor in interceptors {
            interceptor.callDidFinish(original, result: result, context: context)
        }
        for interceptor in networkInterceptors {
            interceptor.callDidFinish(original, result: result, context: context)
        }
        for observer in settings.callObservers {
            observer.callDidFinish(original, result, context)
        }
        // A context kept after the call (by an interceptor, an observer) holds no response. Its preparation records
        // stay: work the call started may outlive it (a coalesced exchange, a task an interceptor started) and still
        // look its request up.
        budget?.forgetLastSend()
        return result
    }

    /// Whether `result` is the call's cancellation, which is never retried.
    private static func isCancellation(_ result: Result<HTTPResponse, APIClientError>) -> Bool {
        if case .failure(.cancelled) = result { return true }
        return false
    }

    /// The retrier's delay before another attempt after `result`, or `nil` when it says the call ends.
    @inline(never)
    private func retryDelay(
        from retrier: any RequestRetrier, after result: Result<HTTPResponse, APIClientError>, of request: HTTPRequest,
        context: HTTPCallContext
    ) async -> Duration? {
        let decision = await HTTPCallContext.$current.withValue(context) {
            await retrier.decision(for: result, request: request, context: context)
        }
        guard case .retry(let delay) = decision else { return nil }
        return delay
    }

    /// Before another attempt after `retry.last`: the budget and replayability checks, and the sleep.
    @inline(never)
    private func step(
        retrying retry: (last: Result<HTTPResponse, APIClientError>, delay: Duration), of original: HTTPRequest,
        context: HTTPCallContext, budget: SendBudget?
    ) async -> NextStep {
        if Task.isCancelled { return .finish(.failure(.cancelled)) }
        // A body streamed from a sequence has been used up: the call ends with what it got.
        guard original.body?.isReplayable ?? true else { return .finish(validate(retry.last, of: original)) }
        guard context.attempt < context.maxAttempts, budget.map({ $0.sends < $0.limit }) ?? true else {
            return .finish(.failure(.retryLimitExceeded(attempts: context.attempt, lastOutcome: retry.last)))
        }
        do {
            // The one wait between attempts, on the call's clock (a test's virtual clock decides when it ends).
            try await settings.clock.sleep(for: retry.delay)
        } catch {
            return .finish(.failure(.cancelled))
        }
        return .retry
    }

    private func attempt(
        _ original: HTTPRequest, context: HTTPCallContext, files: inout DownloadFiles, budget: SendBudget?
    ) async -> AttemptOutcome {
        var request = original
        do {
            for interceptor in requestInterceptors {
                request = try await interceptor.intercept(request: request)
            }
        } catch {
            return .done(.failure(APIClientError(error)), request: nil)
        }
        let prepared: HTTPRequest
        do {
            prepared = try files.writingBodyToPartFile(request.prepared(for: transportFields))
        } catch {
            return .done(.failure(error), request: nil)
        }

        var result: Result<HTTPResponse, APIClientError>
        do {
            // Without onion interceptors (and so without a budget) the transport is called here, one async frame
            // fewer; with them the first one gets the attempt's prepared request.
            let response =
                if let budget {
                    try await intercept(
                        prepared, index: 0, run: OnionRun(pipeline: self, context: context, budget: budget))
                } else {
                    try await sendUnwrapped(prepared)
                }
            result = .success(try DownloadFiles.storingBody(of: response, sentWith: prepared))
        } catch {
            result = .failure(error)
        }
        if case .failure(.cancelled) = result { return .done(result, request: nil) }
        guard !responseInterceptors.isEmpty else { return .done(result, request: prepared) }
        return await intercepting(result, for: prepared)
    }

    /// The response interceptors run on an attempt's outcome (kept out of ``attempt(_:context:files:budget:)``, whose
    /// frame is alive while the transport runs).
    @inline(never)
    private func intercepting(
        _ outcome: Result<HTTPResponse, APIClientError>, for prepared: HTTPRequest
    ) async -> AttemptOutcome {
        var result = outcome
        for interceptor in responseInterceptors {
            let decision: ResponseInterceptorResult
            do {
                switch result {
                case .success(let response):
                    decision = try await interceptor.intercept(response: response, for: prepared)
                case .failure(let error): decision = try await interceptor.intercept(error: error, for: prepared)
                }
            } catch {
                result = .failure(APIClientError(error))
                continue
            }
            switch decision {
            case .proceed(let response): result = .success(response)
            case .fail(let error): result = .failure(error)
            case .retry: return .retry(last: result, after: .zero)
            }
        }
        return .done(result, request: prepared)
    }

    /// The onion: interceptor `index` of ``interceptors`` followed by ``networkInterceptors`` wraps everything after
    /// it; past the last one is the transport. The first network interceptor and the transport always get a prepared
    /// request: one an interceptor changed (or replaced) is prepared again and records that it was changed.
    fileprivate func proceed(
        _ request: HTTPRequest, index: Int, run: OnionRun
    ) async throws(APIClientError) -> HTTPResponse {
        var request = request
        if index == interceptors.count || index == interceptors.count + networkInterceptors.count, !request.isPrepared {
            // The attempt's preparation added the transport's fields when it has any; a field an interceptor removed
            // since stays removed.
            request = try RequestPreparation.prepare(
                request, for: nil, changedAfterPreparation: true, transportFieldsAdded: transportFields != nil)
        }
        guard index < interceptors.count + networkInterceptors.count else {
            if Task.isCancelled { throw .cancelled }
            return try await send(request, budget: run.budget)
        }
        return try await intercept(request, index: index, run: run)
    }

    /// Sends the attempt's prepared `request` to the transport, in a call without onion interceptors.
    private func sendUnwrapped(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        return try await transport.send(request)
    }

    /// Sends `request`, counting the send (every send counts, however many times an interceptor calls `next`).
    @inline(never)
    private func send(_ request: HTTPRequest, budget: SendBudget) async throws(APIClientError) -> HTTPResponse {
        try budget.spend()
        do {
            let response = try await transport.send(request)
            budget.record(.success(response))
            return response
        } catch {
            budget.record(.failure(error))
            throw error
        }
    }

    /// Interceptor `index` (of ``interceptors``, then ``networkInterceptors``) around the rest of the onion.
    @inline(never)
    private func intercept(
        _ request: HTTPRequest, index: Int, run: OnionRun
    ) async throws(APIClientError) -> HTTPResponse {
        let interceptor =
            index < interceptors.count ? interceptors[index] : networkInterceptors[index - interceptors.count]
        let next = HTTPInterceptorNext(OnionPosition(run: run, index: index + 1))
        do {
            return try await interceptor.intercept(request, context: run.context, next: next)
        } catch {
            throw APIClientError(error)
        }
    }

    /// What every position of one attempt's onion shares, in one object: a position (and so each `next`) holds one
    /// reference to it instead of a copy of the context (BENCHMARKS.md, "The chain").
    final class OnionRun: Sendable {
        let pipeline: CallPipeline
        let context: HTTPCallContext
        let budget: SendBudget

        init(pipeline: CallPipeline, context: HTTPCallContext, budget: SendBudget) {
            self.pipeline = pipeline
            self.context = context
            self.budget = budget
        }
    }

    /// A place in the onion: what an interceptor's `next` runs (a value, so that `next` needs no closure).
    struct OnionPosition: Sendable {
        let run: OnionRun
        let index: Int

        /// Sends `request` through the onion from this position on.
        func proceed(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
            try await run.pipeline.proceed(request, index: index, run: run)
        }
    }

    /// `result` checked by the request's own validation, or else the client's.
    private func validate(
        _ result: Result<HTTPResponse, APIClientError>, of original: HTTPRequest
    ) -> Result<HTTPResponse, APIClientError> {
        guard case .success(let response) = result else { return result }
        do throws(APIClientError) {
            try (original.validation ?? settings.validation).validate(response)
            return result
        } catch {
            return .failure(error)
        }
    }
}
