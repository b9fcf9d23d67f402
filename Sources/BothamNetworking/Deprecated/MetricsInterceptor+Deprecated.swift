// Spellings of the release before MetricsInterceptor's report was nested (#34: every rename keeps a deprecated
// shim for at least one minor version).

/// What one call cost, reported once by ``MetricsInterceptor`` when the call ends.
@available(*, deprecated, renamed: "MetricsInterceptor.Report")
public typealias CallMetrics = MetricsInterceptor.Report

/// Where ``MetricsInterceptor`` reports: a closure given one report per call.
@available(*, deprecated, message: "give MetricsInterceptor the closure: MetricsInterceptor { report in ... }")
public struct MetricsSink: Sendable {
    private let record: @Sendable (MetricsInterceptor.Report) -> Void

    /// A sink from a closure. It may be called from several tasks at once.
    public init(_ record: @escaping @Sendable (MetricsInterceptor.Report) -> Void) {
        self.record = record
    }

    /// Reports one call.
    public func callAsFunction(_ metrics: MetricsInterceptor.Report) {
        record(metrics)
    }
}

extension MetricsInterceptor {
    /// Creates a metrics interceptor reporting to `sink`.
    @available(*, deprecated, message: "give MetricsInterceptor the closure: MetricsInterceptor { report in ... }")
    public init(redactor: Redactor = .default, sink: MetricsSink) {
        self.init(redactor: redactor) { sink($0) }
    }

    /// Where reports go.
    @available(*, deprecated, message: "keep the closure you gave MetricsInterceptor")
    public var sink: MetricsSink { MetricsSink(record) }
}
