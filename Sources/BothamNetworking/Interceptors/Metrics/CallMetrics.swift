/// What one call cost, reported once by ``MetricsInterceptor`` when the call ends.
public struct CallMetrics: Sendable {
    /// How a call ended.
    public enum Outcome: Sendable {
        /// The caller received this status.
        case response(statusCode: Int)
        /// The caller received this error.
        case failure(APIClientError)
    }

    /// The call's id (``HTTPCallContext/callID``).
    public let callID: UInt64
    /// The method of the original request.
    public let method: HTTPMethod
    /// The original request's URL with secrets hidden (see ``Redactor``).
    public let url: String
    /// From the start of the call to its end, all attempts and backoff included.
    public let duration: Duration
    /// How many attempts the call made (1 when it was not retried).
    public let attempts: Int
    /// The final outcome. For a ``APIClientError/httpResponseError(_:)`` or a spent retry budget, the error (its
    /// ``APIClientError/statusCode`` gives the last status).
    public let outcome: Outcome
    /// Body bytes sent, summed over the attempts that reached the transport.
    public let bytesSent: Int
    /// Body bytes received, summed over the attempts that got a response.
    public let bytesReceived: Int
    /// Where each attempt that reached the transport spent its time, in order: one entry per attempt, the
    /// response's ``HTTPResponse/timings`` (`nil` for an attempt that failed, or whose transport measures nothing).
    /// An attempt that ended before the transport (an invalid request) has no entry.
    public let timings: [HTTPTimings?]

    /// The final status code: the response's, or the one an HTTP error carries.
    public var statusCode: Int? {
        switch outcome {
        case .response(let statusCode): return statusCode
        case .failure(let error): return error.statusCode
        }
    }
}

/// Where ``MetricsInterceptor`` reports: a closure given one ``CallMetrics`` per call.
public struct MetricsSink: Sendable {
    private let record: @Sendable (CallMetrics) -> Void

    /// A sink from a closure. It may be called from several tasks at once.
    public init(_ record: @escaping @Sendable (CallMetrics) -> Void) {
        self.record = record
    }

    /// Reports one call.
    public func callAsFunction(_ metrics: CallMetrics) {
        record(metrics)
    }
}
