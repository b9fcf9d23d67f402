/// Reports per call: duration, attempts, final status or error, and body bytes sent and received.
///
/// ```swift
/// let metrics = MetricsInterceptor { report in
///     print("\(report.method) \(report.url): \(report.statusCode ?? 0) in \(report.duration), \(report.attempts) attempt(s)")
/// }
/// metrics.install(on: apiClient)
/// ```
///
/// Design: a call's totals span its attempts, and only the client knows when the last attempt is over (a retry
/// strategy or response interceptor may still send it again). So the interceptor has two roles, both needed:
/// - as an ``HTTPInterceptor`` in the onion it counts each attempt's bytes, keyed by ``HTTPCallContext/callID``;
/// - as an ``HTTPCallObserver`` it is told once when the call ends, takes that call's totals out and emits exactly
///   one ``CallMetrics``.
///
/// ``install(on:)`` registers both roles. Calls that end before any attempt reaches the transport (an invalid
/// request, a cancelled call) are still reported, with zero bytes. The per-call table is capped so calls that never
/// finish on this client cannot grow it without bound.
public struct MetricsInterceptor: Sendable {
    struct Totals {
        var bytesSent = 0
        var bytesReceived = 0
    }

    static let capacity = 4_096

    /// Where reports go.
    public let sink: MetricsSink
    /// Hides secrets in the reported URL.
    public let redactor: Redactor
    private let totals = Lock([UInt64: Totals]())

    /// Creates a metrics interceptor reporting to `sink`.
    public init(redactor: Redactor = .default, sink: MetricsSink) {
        self.sink = sink
        self.redactor = redactor
    }

    /// Creates a metrics interceptor reporting to a closure.
    public init(redactor: Redactor = .default, _ record: @escaping @Sendable (CallMetrics) -> Void) {
        self.init(redactor: redactor, sink: MetricsSink(record))
    }

    private func add(_ callID: UInt64, _ change: (inout Totals) -> Void) {
        totals.withLock { table in
            if table[callID] == nil, table.count >= Self.capacity, let oldest = table.keys.min() {
                table[oldest] = nil
            }
            change(&table[callID, default: Totals()])
        }
    }
}

extension MetricsInterceptor: HTTPInterceptor {
    /// Counts the attempt's body bytes.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let sent = BodyPreview.byteCount(of: request)
        add(context.callID) { $0.bytesSent += sent }
        let response = try await next(request)
        add(context.callID) { $0.bytesReceived += response.body.count }
        return response
    }
}

extension MetricsInterceptor: HTTPCallObserver {
    /// Emits the call's one report.
    public func callDidFinish(
        _ request: HTTPRequest,
        result: Result<HTTPResponse, APIClientError>,
        context: HTTPCallContext
    ) {
        let callTotals = totals.withLock { $0.removeValue(forKey: context.callID) } ?? Totals()
        let outcome: CallMetrics.Outcome
        switch result {
        case .success(let response): outcome = .response(statusCode: response.statusCode)
        case .failure(let error): outcome = .failure(error)
        }
        let (sink, url) = (sink, redactor.redactedURL(of: request))
        @Sendable func report(received: Int) {
            sink(
                CallMetrics(
                    callID: context.callID,
                    method: request.method,
                    url: url,
                    duration: .now - context.startedAt,
                    attempts: context.attempt,
                    outcome: outcome,
                    bytesSent: callTotals.bytesSent,
                    bytesReceived: received
                )
            )
        }
        if case .success(let response) = result, let stream = response.bodyStream {
            // A streamed call is over when its body has been read: reported then, with the bytes that came.
            stream.onEnd { summary in report(received: callTotals.bytesReceived + summary.bytes) }
        } else {
            report(received: callTotals.bytesReceived)
        }
    }
}
