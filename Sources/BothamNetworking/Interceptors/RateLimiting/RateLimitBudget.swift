/// One budget's state, and the decisions it makes (pure: each method is given `now`, nothing here waits).
///
/// - `remaining` and `resetAt`: the server's numbers (``RateLimitReading``), replaced by every response that has
///   them and counted down by every call let through; once `resetAt` has passed they are forgotten (the budget is
///   unknown again, and nothing waits for it).
/// - `blockedUntil`: the end of the wait a 429 or 503 asked for; every call to the budget waits for it.
/// - `bucket`: the optional client-side ``TokenBucket``.
package struct RateLimitBudget: Sendable, Equatable {
    /// What a call about to be sent must do.
    package enum Decision: Sendable, Equatable {
        /// Send now (the call is counted).
        case go
        /// Wait until this instant, then ask again; a ``RateLimitInterceptor/Wait/Reason/tokenBucket`` wait holds
        /// the token it waits for.
        case wait(until: ContinuousClock.Instant, reason: RateLimitInterceptor.Wait.Reason)
        /// Fail at once: the wait would be this long, beyond the ceiling.
        case refuse(after: Duration, reason: RateLimitInterceptor.Wait.Reason)
    }

    /// The requests left, as last said by the server and counted down since; `nil` when unknown.
    package private(set) var remaining: Int?
    /// When the server's budget refills; `nil` when unknown.
    package private(set) var resetAt: ContinuousClock.Instant?
    /// Until when a 429 or 503 asked the client to wait.
    package private(set) var blockedUntil: ContinuousClock.Instant?
    /// The client-side bucket, when one is configured.
    package private(set) var bucket: TokenBucket?

    /// An unknown budget, with `bucket` (full) when there is one.
    package init(bucket: TokenBucket?) {
        self.bucket = bucket
    }

    /// Decides for a call at `now`. `holdsToken` says the call already waited for its token; `maxWait` (`nil`: no
    /// ceiling) is the longest single wait allowed, beyond which the call is refused (a token it holds is given
    /// back).
    package mutating func admit(
        now: ContinuousClock.Instant, maxWait: Duration?, holdsToken: Bool
    ) -> Decision {
        forgetPassed(now: now)
        var serverWait: (until: ContinuousClock.Instant, reason: RateLimitInterceptor.Wait.Reason)?
        if let blockedUntil { serverWait = (blockedUntil, .retryAfter) }
        if remaining == 0, let resetAt, resetAt > serverWait?.until ?? now { serverWait = (resetAt, .budgetSpent) }
        if let serverWait {
            let wait = serverWait.until - now
            guard let maxWait, wait > max(.zero, maxWait) else {
                return .wait(until: serverWait.until, reason: serverWait.reason)
            }
            if holdsToken { bucket?.giveBack() }
            return .refuse(after: wait, reason: serverWait.reason)
        }
        if !holdsToken, bucket != nil {
            switch bucket?.take(now: now, maxWait: maxWait) {
            case .at(let instant): return .wait(until: instant, reason: .tokenBucket)
            case .tooLong(let wait): return .refuse(after: wait, reason: .tokenBucket)
            case .now, nil: break
            }
        }
        if let remaining { self.remaining = max(0, remaining - 1) }
        return .go
    }

    /// Takes in a response received at `now`: its `reading` replaces the known budget, and `block` (the wait a 429
    /// or 503 asked for) holds every call back until `now + block`.
    package mutating func record(_ reading: RateLimitReading?, block: Duration?, now: ContinuousClock.Instant) {
        if let reading {
            remaining = reading.remaining
            resetAt = reading.reset.map { now + $0 }
        }
        if let block, block > .zero {
            let until = now + block
            blockedUntil = max(blockedUntil ?? until, until)
        }
    }

    /// Gives back the token of a call that waited for it and then did not go (cancelled).
    package mutating func giveBackToken() {
        bucket?.giveBack()
    }

    /// Whether the budget holds nothing worth keeping at `now` (nothing known, no block, a full bucket).
    package func isIdle(at now: ContinuousClock.Instant) -> Bool {
        let budgetKnown = resetAt.map { $0 > now } ?? (remaining != nil)
        let blocked = blockedUntil.map { $0 > now } ?? false
        return !budgetKnown && !blocked && (bucket?.isFull(at: now) ?? true)
    }

    /// Forgets the budget once its reset has passed, and a block that has ended.
    private mutating func forgetPassed(now: ContinuousClock.Instant) {
        if let resetAt, resetAt <= now {
            remaining = nil
            self.resetAt = nil
        }
        if let blockedUntil, blockedUntil <= now { self.blockedUntil = nil }
    }
}
