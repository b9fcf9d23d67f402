extension RetryPolicy {
    /// A source of random numbers in `0..<1`, injectable so jittered delays can be tested exactly.
    ///
    /// ```swift
    /// let policy = RetryPolicy(random: .constant(0.5))   // every jitter draw is 0.5
    /// ```
    public struct Random: Sendable {
        private let next: @Sendable () -> Double

        /// A source from a closure. Values outside `0...1` are clamped.
        package init(_ next: @escaping @Sendable () -> Double) {
            self.next = next
        }

        /// The next number, in `0...1`.
        package func callAsFunction() -> Double {
            let value = next()
            guard value.isFinite else { return 0 }
            return min(1, max(0, value))
        }

        /// The system's random number generator. The default.
        public static let system = RetryPolicy.Random { Double.random(in: 0..<1) }

        /// Always `value`; for tests.
        public static func constant(_ value: Double) -> RetryPolicy.Random {
            RetryPolicy.Random { value }
        }
    }
}
