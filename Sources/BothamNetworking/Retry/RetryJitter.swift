extension RetryPolicy {
    /// How a backoff delay `d` is randomised, with `r` drawn from the policy's ``RetryPolicy/Random`` in `0...1`.
    ///
    /// Jitter spreads the retries of many clients so they do not hit a recovering server at the same instant. The
    /// result is never negative and never more than the backoff's `maxDelay`.
    public enum Jitter: Sendable, Hashable {
        /// No randomness: exactly `d`.
        case none
        /// "Full jitter": `r × d`, anywhere between 0 and `d`. The default, as recommended by AWS's
        /// "Exponential Backoff And Jitter".
        case full
        /// "Equal jitter": `d/2 + r × d/2`, between half of `d` and `d`.
        case equal
        /// `d` plus or minus a fraction of it: `d × (1 − f + 2f × r)`, so `.proportional(0.25)` gives 75 %…125 % of `d`.
        /// `f` is clamped to `0...1`.
        case proportional(Double)

        /// Applies the jitter to `delay` with the random draw `random` (in `0...1`).
        package func apply(to delay: Duration, random: Double) -> Duration {
            switch self {
            case .none:
                return delay
            case .full:
                return delay * random
            case .equal:
                return delay / 2 + (delay / 2) * random
            case .proportional(let fraction):
                let f = fraction.isFinite ? min(1, max(0, fraction)) : 0
                return delay * (1 - f + 2 * f * random)
            }
        }
    }
}
