extension TracingInterceptor {
    /// Starts the spans of ``TracingInterceptor``: one per call, and one per attempt inside it. The hook to bridge the
    /// client to a tracing system (swift-distributed-tracing, OpenTelemetry) in your own code; <doc:Tracing> shows
    /// both bridges.
    ///
    /// ```swift
    /// struct PrintingTracer: TracingInterceptor.Tracer {
    ///     func startSpan(_ start: TracingInterceptor.SpanStart) -> any TracingInterceptor.Span {
    ///         print("start \(start.name) \(start.traceContext.spanID) \(start.url)")
    ///         return PrintedSpan(name: start.name)
    ///     }
    /// }
    ///
    /// struct PrintedSpan: TracingInterceptor.Span {
    ///     let name: String
    ///     func end(_ end: TracingInterceptor.SpanEnd) {
    ///         print("end \(name) status \(end.statusCode ?? 0) error \(end.errorKind ?? "none")")
    ///     }
    /// }
    /// ```
    ///
    /// Every span started is ended exactly once: an attempt's when its response arrives (or, for a streamed body, when
    /// the body ends) or when it fails; the call's when the call ends, after its last attempt's. Both methods run on the
    /// call's task; keep them short, and do not use the call's values (``HTTPCallContext`` subscripts) in them.
    public protocol Tracer: Sendable {
        /// Starts a span and returns it; the interceptor ends it.
        func startSpan(_ start: SpanStart) -> any Span
    }

    /// A span started by a ``TracingInterceptor/Tracer``.
    public protocol Span: Sendable {
        /// The ids to propagate for this span, when the tracing system chose its own: an attempt's become the
        /// `traceparent` sent, a call's the trace and parent of its attempts. `nil` (the default) keeps the ids of
        /// ``TracingInterceptor/SpanStart/traceContext``.
        var traceContext: Context? { get }

        /// Ends the span, once.
        func end(_ end: SpanEnd)
    }

}

extension TracingInterceptor.Span {
    /// `nil`: the span uses the ids it was started with.
    public var traceContext: TracingInterceptor.Context? { nil }
}

extension TracingInterceptor {

    /// What a span is about, given to ``TracingInterceptor/Tracer/startSpan(_:)``.
    public struct SpanStart: Sendable {
        /// Which span this is.
        public enum Kind: Sendable, Hashable {
            /// The whole call, every attempt and backoff included.
            case call
            /// One attempt, numbered from 1 (``HTTPCallContext/attempt``), a child of the call's span.
            case attempt(Int)
        }

        /// A call or an attempt.
        public let kind: Kind
        /// `HTTP GET` for a call, `GET` for an attempt (OpenTelemetry names a client request span by its method).
        public let name: String
        /// The call's id (``HTTPCallContext/callID``).
        package let callID: UInt64
        /// The request's method.
        public let method: HTTPMethod
        /// The request's URL with secrets hidden by the interceptor's ``Redactor`` (``Redactor/default`` unless
        /// configured): a token in the query is never given to a tracer.
        public let url: String
        /// This span's ids: its trace, and ``TracingInterceptor/Context/spanID`` its own new id.
        public let traceContext: Context
        /// The span this one is a child of: for a call, the span of the context provider's context (`nil` when the
        /// call starts a new trace); for an attempt, the call's span.
        package let parentSpanID: SpanID?
        /// For an attempt, the call's span as the tracer returned it (a bridge reads its own parent from it); `nil`
        /// for a call, or without a tracer.
        public let parent: (any Span)?
    }

    /// How a span ended, given to ``TracingInterceptor/Span/end(_:)``.
    public struct SpanEnd: Sendable {
        /// The status received: an attempt's response, or the call's final response (also when it failed validation).
        public let statusCode: Int?
        /// The error that ended it, `nil` for a response the caller received.
        public let error: APIClientError?
        /// The attempts made: for an attempt, its number; for a call, how many the call made.
        package let attempts: Int

        /// Creates an end.
        package init(statusCode: Int?, error: APIClientError?, attempts: Int) {
            self.statusCode = statusCode
            self.error = error
            self.attempts = attempts
        }

        /// A short, stable name for ``error`` (an OpenTelemetry `error.type`): `timeout`, `cancelled`, the network
        /// failure's kind (`cannotConnect`, `connectionLost`, …), `http_<status>` for a rejected status, or the error
        /// case's name; `nil` without an error.
        public var errorKind: String? {
            error.map(Self.kind(of:))
        }

        static func kind(of error: APIClientError) -> String {
            switch error {
            case .httpResponseError(let response): return "http_\(response.statusCode)"
            case .networkError(let failure): return "\(failure.kind)"
            case .httpClientError: return "httpClientError"
            case .parsingError: return "parsingError"
            case .unsupportedURLScheme: return "unsupportedURLScheme"
            case .invalidRequest: return "invalidRequest"
            case .interceptorError: return "interceptorError"
            case .cancelled: return "cancelled"
            case .timeout: return "timeout"
            case .downloadDestinationError: return "downloadDestinationError"
            case .retryLimitExceeded: return "retryLimitExceeded"
            }
        }
    }
}
