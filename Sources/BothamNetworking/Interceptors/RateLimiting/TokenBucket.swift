/// A client-side token bucket: `burst` calls may go at once, then one every `1 / rate` seconds.
///
/// It is kept as the instant the next token is due (the generic cell rate algorithm), in `Duration` arithmetic, so
/// the spacing is exact: a bucket of 2 calls a second with a burst of 1 lets the first call go at once and makes the
/// next ones wait 0.5 s, 1 s, 1.5 s… A call that must wait reserves its token at once, so concurrent callers queue
/// in the order they asked.
package struct TokenBucket: Sendable, Equatable {
    /// What ``take(now:maxWait:)`` decided.
    package enum Take: Sendable, Equatable {
        /// The token was free: go now.
        case now
        /// The token is reserved and due at this instant: wait until then.
        case at(ContinuousClock.Instant)
        /// The token would be due after longer than the allowed wait, by this much; nothing was reserved.
        case tooLong(Duration)
    }

    /// The time between two tokens.
    package let interval: Duration
    /// How many tokens the bucket holds when full.
    package let capacity: Int
    /// The instant the bucket would be empty again if every token taken so far had been spaced by `interval`.
    private var dueAt: ContinuousClock.Instant?

    /// The longest interval kept (about 31 years): beyond it, `Duration` arithmetic could overflow.
    private static let longestInterval: Double = 1e9
    /// The largest capacity kept, for the same reason.
    private static let largestCapacity = 1_000_000

    /// A full bucket of `capacity` (1 to a million) tokens refilled at `rate` tokens a second; `nil` when `rate` is
    /// not a positive, finite number.
    package init?(rate: Double, capacity: Int) {
        guard rate.isFinite, rate > 0 else { return nil }
        interval = .seconds(min(1 / rate, Self.longestInterval))
        self.capacity = min(max(1, capacity), Self.largestCapacity)
    }

    /// Takes a token at `now`: free, reserved for a later instant, or refused when it would be due after longer
    /// than `maxWait` (`nil`: no ceiling).
    package mutating func take(now: ContinuousClock.Instant, maxWait: Duration?) -> Take {
        let due = max(dueAt ?? now, now)
        let allowedAt = due - interval * (capacity - 1)
        guard allowedAt > now else {
            dueAt = due + interval
            return .now
        }
        let wait = allowedAt - now
        if let maxWait, wait > max(.zero, maxWait) { return .tooLong(wait) }
        dueAt = due + interval
        return .at(allowedAt)
    }

    /// Gives back a token reserved by ``take(now:maxWait:)`` that was not used (its call was cancelled or refused).
    package mutating func giveBack() {
        dueAt = dueAt.map { $0 - interval }
    }

    /// Whether the bucket is full again at `now` (it holds nothing worth keeping).
    package func isFull(at now: ContinuousClock.Instant) -> Bool {
        guard let dueAt else { return true }
        return dueAt <= now
    }
}
