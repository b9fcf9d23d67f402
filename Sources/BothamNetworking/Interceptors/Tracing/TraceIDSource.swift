/// Where ``TracingInterceptor`` draws the random bits of new trace and span ids: the system's generator unless a
/// test injects its own.
package struct TraceIDSource: Sendable {
    private let next: @Sendable () -> UInt64

    /// A source from a closure answering 64 random bits per call. Zeros are skipped (an id is never all zeros);
    /// a closure that answers only zeros is replaced by the system's generator after a few draws.
    package init(_ next: @escaping @Sendable () -> UInt64) {
        self.next = next
    }

    /// The system's random number generator. The default.
    package static let system = TraceIDSource { UInt64.random(in: .min ... .max) }

    /// A new trace id.
    package func traceID() -> TraceID {
        let high = next()
        let low = high == 0 ? nonZero() : next()
        return TraceID(checked: high, low: low)
    }

    /// A new span id.
    package func spanID() -> SpanID {
        SpanID(checked: nonZero())
    }

    private func nonZero() -> UInt64 {
        for _ in 0..<8 {
            let value = next()
            if value != 0 { return value }
        }
        return UInt64.random(in: 1 ... .max)
    }
}
