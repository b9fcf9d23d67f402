/// Reports per call: duration, attempts, final status or error, body bytes sent and received, and each attempt's
/// ``HTTPTimings``.
///
/// ```swift
/// let metrics = MetricsInterceptor { report in
///     print("\(report.method) \(report.url): \(report.statusCode ?? 0) in \(report.duration), \(report.attempts) attempt(s)")
/// }
/// metrics.install(on: apiClient)
/// ```
///
/// Design: a call's totals span its attempts, and only the client knows when the last attempt is over (a retry
/// retrier or response interceptor may still send it again). So the interceptor has two roles, both needed:
/// - as an ``HTTPInterceptor`` in the onion it counts each attempt's bytes, in the call's own values
///   (``HTTPCallValueKey``), which every attempt of the call shares;
/// - as an ``HTTPCallObserver`` it is told once when the call ends, reads that call's totals and emits exactly one
///   ``CallMetrics``.
///
/// ``install(on:)`` registers both roles. Calls that end before any attempt reaches the transport (an invalid
/// request, a cancelled call) are still reported, with zero bytes. The totals go away with the call: the
/// interceptor keeps no table of calls.
public struct MetricsInterceptor: Sendable {
    struct Totals: Sendable {
        var bytesSent = 0
        var bytesReceived = 0
        var timings: [HTTPTimings?] = []
    }

    /// Where reports go.
    public let sink: MetricsSink
    /// Hides secrets in the reported URL.
    public let redactor: Redactor
    private let identity = InterceptorIdentity()

    /// Creates a metrics interceptor reporting to `sink`.
    public init(redactor: Redactor = .default, sink: MetricsSink) {
        self.sink = sink
        self.redactor = redactor
    }

    /// Creates a metrics interceptor reporting to a closure.
    public init(redactor: Redactor = .default, _ record: @escaping @Sendable (CallMetrics) -> Void) {
        self.init(redactor: redactor, sink: MetricsSink(record))
    }

    private func add(_ context: HTTPCallContext, _ change: (inout Totals) -> Void) {
        context.update(identity) { (totals: inout Totals?) in
            var changed = totals ?? Totals()
            change(&changed)
            totals = changed
        }
    }
}

extension MetricsInterceptor: HTTPInterceptor {
    /// Counts the attempt's body bytes and keeps its timings.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let sent = BodyPreview.byteCount(of: request)
        add(context) { $0.bytesSent += sent }
        let response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            add(context) { $0.timings.append(nil) }
            throw error
        }
        add(context) {
            $0.bytesReceived += response.body.count
            $0.timings.append(response.timings)
        }
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
        let callTotals = context.value(of: identity, as: Totals.self) ?? Totals()
        let outcome: CallMetrics.Outcome
        switch result {
        case .success(let response): outcome = .response(statusCode: response.statusCode)
        case .failure(let error): outcome = .failure(error)
        }
        let (sink, url, method) = (sink, redactor.redactedURL(of: request), request.method)
        let (callID, startedAt, attempts, clock) = (context.callID, context.startedAt, context.attempt, context.clock)
        @Sendable func report(received: Int) {
            sink(
                CallMetrics(
                    callID: callID,
                    method: method,
                    url: url,
                    duration: clock.now - startedAt,
                    attempts: attempts,
                    outcome: outcome,
                    bytesSent: callTotals.bytesSent,
                    bytesReceived: received,
                    timings: callTotals.timings
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
