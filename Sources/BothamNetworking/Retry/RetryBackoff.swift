import Foundation

extension RetryPolicy {
    /// Exponential backoff: the delay before retry *n* (counting from 1) is `baseDelay × multiplier^(n−1)`, never more
    /// than `maxDelay`.
    ///
    /// With the defaults (0.5 s, ×2, 30 s) the delays before jitter are 0.5 s, 1 s, 2 s, 4 s, …
    public struct Backoff: Sendable, Hashable {
        /// The delay before the first retry.
        package var baseDelay: Duration
        /// The factor between consecutive delays (values below 1 count as 1).
        package var multiplier: Double
        /// The longest delay, before and after jitter.
        package var maxDelay: Duration

        /// Creates a backoff.
        public init(baseDelay: Duration = .milliseconds(500), multiplier: Double = 2, maxDelay: Duration = .seconds(30))
        {
            self.baseDelay = baseDelay
            self.multiplier = multiplier
            self.maxDelay = maxDelay
        }

        /// The delay before retry `retry` (1 for the first retry), without jitter.
        package func delay(beforeRetry retry: Int) -> Duration {
            .exponential(base: baseDelay, multiplier: multiplier, maximum: maxDelay, step: retry)
        }
    }
}
