/// Reports per call: duration, attempts, final status or error, body bytes sent and received, and each attempt's
/// ``HTTPResponse/Timings``.
///
/// ```swift
/// apiClient.interceptors.append(MetricsInterceptor { report in
///     print("\(report.method) \(report.url): \(report.statusCode ?? 0) in \(report.duration), \(report.attempts) attempt(s)")
/// })
/// ```
///
/// Design: a call's totals span its attempts, and only the client knows when the last attempt is over (a retry
/// retrier or response interceptor may still send it again). So the interceptor does two things:
/// - in the onion it counts each attempt's bytes, in the call's own values (``HTTPCallValueKey``), which every
///   attempt of the call shares;
/// - told once when the call ends (``callDidFinish(_:result:context:)``), it reads that call's totals and emits
///   exactly one ``Report``.
///
/// Calls that end before any attempt reaches the transport (an invalid
/// request, a cancelled call) are still reported, with zero bytes. The totals go away with the call: the
/// interceptor keeps no table of calls.
public struct MetricsInterceptor: Sendable {
    struct Totals: Sendable {
        var bytesSent = 0
        var bytesReceived = 0
        var timings: [HTTPResponse.Timings?] = []
    }

    /// Where reports go.
    let record: @Sendable (Report) -> Void
    /// Hides secrets in the reported URL.
    let redactor: Redactor
    private let identity = InterceptorIdentity()

    /// Creates a metrics interceptor reporting to a closure, which may be called from several tasks at once.
    public init(redactor: Redactor = .default, _ record: @escaping @Sendable (Report) -> Void) {
        self.record = record
        self.redactor = redactor
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

extension MetricsInterceptor {
    /// Emits the call's one report.
    public func callDidFinish(
        _ request: HTTPRequest,
        result: Result<HTTPResponse, APIClientError>,
        context: HTTPCallContext
    ) {
        let callTotals = context.value(of: identity, as: Totals.self) ?? Totals()
        let outcome: Report.Outcome
        switch result {
        case .success(let response): outcome = .response(statusCode: response.statusCode)
        case .failure(let error): outcome = .failure(error)
        }
        let (record, url, method) = (record, redactor.redactedURL(of: request), request.method)
        let (callID, startedAt, attempts, clock) = (context.callID, context.startedAt, context.attempt, context.clock)
        @Sendable func report(received: Int) {
            record(
                Report(
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
