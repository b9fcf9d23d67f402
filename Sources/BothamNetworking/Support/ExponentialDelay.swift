import Foundation

extension Duration {
    /// `base` multiplied by `multiplier` for each step after the first (`step` is 1-based; a multiplier below 1, or
    /// not finite, counts as 1), never above `maximum` nor below zero: the backoff of retries and of WebSocket
    /// reconnections.
    package static func exponential(base: Duration, multiplier: Double, maximum: Duration, step: Int) -> Duration {
        let exponent = Double(max(0, step - 1))
        let factor = Foundation.pow(max(1, multiplier.isFinite ? multiplier : 1), exponent)
        let seconds = base.seconds * factor
        guard seconds.isFinite, seconds < maximum.seconds else { return max(.zero, maximum) }
        return max(.zero, .seconds(seconds))
    }
}
