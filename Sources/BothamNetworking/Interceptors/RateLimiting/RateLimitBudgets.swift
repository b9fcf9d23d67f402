/// Every budget of one ``RateLimitInterceptor`` (shared by its copies) by key, behind one ``Lock``. Budgets that
/// hold nothing (unknown, unblocked, with a full bucket) are dropped, so the table only keeps live budgets.
package final class RateLimitBudgets: Sendable {
    private let budgets = Lock<[String: RateLimitBudget]>([:])
    /// The bucket each new budget starts with.
    private let bucket: TokenBucket?

    /// An empty table whose budgets each get a full copy of `bucket`.
    package init(bucket: TokenBucket?) {
        self.bucket = bucket
    }

    /// ``RateLimitBudget/admit(now:maxWait:holdsToken:)`` on the budget of `key`.
    package func admit(
        _ key: String, now: ContinuousClock.Instant, maxWait: Duration?, holdsToken: Bool
    ) -> RateLimitBudget.Decision {
        change(key, now: now) { $0.admit(now: now, maxWait: maxWait, holdsToken: holdsToken) }
    }

    /// ``RateLimitBudget/record(_:block:now:)`` on the budget of `key`.
    package func record(_ key: String, reading: RateLimitReading?, block: Duration?, now: ContinuousClock.Instant) {
        guard reading != nil || block != nil else { return }
        change(key, now: now) { $0.record(reading, block: block, now: now) }
    }

    /// ``RateLimitBudget/giveBackToken()`` on the budget of `key`.
    package func giveBackToken(_ key: String, now: ContinuousClock.Instant) {
        change(key, now: now) { $0.giveBackToken() }
    }

    /// The budget of `key` as it is now (a new one when none is kept).
    package func budget(_ key: String) -> RateLimitBudget {
        budgets.withLock { $0[key] } ?? RateLimitBudget(bucket: bucket)
    }

    private func change<Result>(
        _ key: String, now: ContinuousClock.Instant, _ body: (inout RateLimitBudget) -> Result
    ) -> Result {
        budgets.withLock { budgets in
            var budget = budgets.removeValue(forKey: key) ?? RateLimitBudget(bucket: bucket)
            let result = body(&budget)
            if !budget.isIdle(at: now) { budgets[key] = budget }
            return result
        }
    }
}
