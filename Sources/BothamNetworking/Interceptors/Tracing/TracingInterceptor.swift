/// Propagates W3C Trace Context: adds `traceparent` (and `tracestate`, when the trace has one) to every attempt,
/// and reports a span per call and per attempt to an optional ``TracingInterceptor/Tracer``.
///
/// ```swift
/// enum RequestTrace {
///     @TaskLocal static var current: TracingInterceptor.Context?
/// }
///
/// apiClient.interceptors.append(TracingInterceptor { RequestTrace.current })   // the caller's trace, or a new one
/// ```
///
/// - A call joins the trace of the context provider's answer (read once, at the call's first attempt), or starts
///   a new one with random ids. Its span gets a new id, a child of the provider's span.
/// - Each attempt gets a new span id, a child of the call's span, in the same trace: the `traceparent` a retry sends
///   has the trace id of the first attempt and a parent id of its own.
/// - A request that already has a `traceparent` field keeps it, and its `tracestate`, untouched: the spans are
///   still reported, with the interceptor's ids.
/// - Append it to ``BothamAPIClient/interceptors`` before a signer, so the signature covers the fields; it ends the
///   call's span when the call ends (``callDidFinish(_:result:context:)``).
///
/// Per-call state (the trace and the call's span) lives in the call's values (``HTTPCallValueKey``); the interceptor
/// keeps none, so concurrent calls never share ids.
public struct TracingInterceptor: Sendable {
    /// The trace of one call, per tracing interceptor watching it.
    struct CallTrace: Sendable {
        /// The call's trace, and its span's id.
        var context: Context
        /// The call's span, once the tracer started it.
        var span: (any Span)?
    }

    /// Where spans go; `nil` to propagate headers only.
    let tracer: (any Tracer)?
    /// Hides secrets in the URL given to the tracer.
    let redactor: Redactor
    /// The flags of a trace this interceptor starts (``TraceFlags/sampled`` by default).
    let newTraceFlags: TraceFlags
    private let ids: TraceIDSource
    private let contextProvider: @Sendable () -> Context?
    private let identity = InterceptorIdentity()

    /// Creates a tracing interceptor.
    ///
    /// - Parameters:
    ///   - tracer: Starts the spans of calls and attempts; `nil` to only add the header fields.
    ///   - redactor: Hides secrets in the URL given to the tracer.
    ///   - context: The caller's current trace context (a task-local, say), read once per call; `nil` starts a new,
    ///     sampled trace with random ids.
    public init(
        tracer: (any Tracer)? = nil,
        redactor: Redactor = .default,
        context: @escaping @Sendable () -> Context? = { nil }
    ) {
        self.init(tracer: tracer, redactor: redactor, newTraceFlags: .sampled, ids: .system, context: context)
    }

    /// Creates a tracing interceptor whose new traces have `newTraceFlags` and draw their ids from `ids` (tests).
    package init(
        tracer: (any Tracer)? = nil,
        redactor: Redactor = .default,
        newTraceFlags: TraceFlags = .sampled,
        ids: TraceIDSource,
        context: @escaping @Sendable () -> Context? = { nil }
    ) {
        self.tracer = tracer
        self.redactor = redactor
        self.newTraceFlags = newTraceFlags
        self.ids = ids
        self.contextProvider = context
    }

    /// The call's trace: the one recorded by an earlier attempt, or a new one (and its span) for the first.
    private func callTrace(_ request: HTTPRequest, context: HTTPCallContext) -> CallTrace {
        if let trace = context.value(of: identity, as: CallTrace.self) { return trace }
        let provided = contextProvider()
        let callContext = Context(
            trace: provided?.trace ?? ids.traceID(), span: ids.spanID(),
            flags: provided?.flags ?? newTraceFlags, state: provided?.state)
        // The provider and the tracer are the caller's code: they run outside the call's lock. Only the first
        // to record the trace starts the call's span.
        let (trace, isFirst) = context.update(identity) { (recorded: inout CallTrace?) -> (CallTrace, Bool) in
            if let recorded { return (recorded, false) }
            let trace = CallTrace(context: callContext, span: nil)
            recorded = trace
            return (trace, true)
        }
        guard isFirst, let tracer else { return trace }
        let span = tracer.startSpan(
            SpanStart(
                kind: .call, name: "HTTP \(request.method.rawValue)", callID: context.callID, method: request.method,
                url: redactor.redactedURL(of: request), traceContext: callContext, parentSpanID: provided?.span,
                parent: nil))
        return context.update(identity) { (recorded: inout CallTrace?) in
            recorded?.span = span
            return recorded ?? CallTrace(context: callContext, span: span)
        }
    }
}

extension TracingInterceptor: HTTPInterceptor {
    /// Adds the attempt's `traceparent` and `tracestate`, within an attempt span.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let call = callTrace(request, context: context)
        let parent = call.span?.traceContext ?? call.context
        let proposed = parent.child(span: ids.spanID())
        let span = tracer?.startSpan(
            SpanStart(
                kind: .attempt(context.attempt), name: request.method.rawValue, callID: context.callID,
                method: request.method, url: redactor.redactedURL(of: request), traceContext: proposed,
                parentSpanID: parent.span, parent: call.span))
        let sent = span?.traceContext ?? proposed
        var traced = request
        if !request.headers.contains("traceparent") {
            traced = traced.withHeader("traceparent", sent.traceparent)
            if let tracestate = sent.tracestate { traced = traced.withHeader("tracestate", tracestate) }
        }
        let attempt = context.attempt
        do {
            let response = try await next(traced)
            Self.end(span, with: .success(response), attempts: attempt)
            return response
        } catch {
            span?.end(SpanEnd(statusCode: error.statusCode, error: error, attempts: attempt))
            throw error
        }
    }

    /// Ends `span` with `result`: now, or for a streamed body when the body ends.
    static func end(_ span: (any Span)?, with result: Result<HTTPResponse, APIClientError>, attempts: Int) {
        guard let span else { return }
        switch result {
        case .success(let response):
            let statusCode = response.statusCode
            guard let stream = response.bodyStream else {
                return span.end(SpanEnd(statusCode: statusCode, error: nil, attempts: attempts))
            }
            stream.onEnd { summary in
                span.end(SpanEnd(statusCode: statusCode, error: summary.error, attempts: attempts))
            }
        case .failure(let error):
            span.end(SpanEnd(statusCode: error.statusCode, error: error, attempts: attempts))
        }
    }
}

extension TracingInterceptor {
    /// Ends the call's span with what the caller receives.
    public func callDidFinish(
        _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
    ) {
        let trace = context.update(identity) { (recorded: inout CallTrace?) -> CallTrace? in
            defer { recorded = nil }
            return recorded
        }
        Self.end(trace?.span, with: result, attempts: context.attempt)
    }
}
