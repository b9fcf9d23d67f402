import BothamNetworking
import Foundation
import Testing

@Suite("RateLimitBudget", .timeLimit(.minutes(1)))
struct RateLimitBudgetTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    @Test("Each call counts one off the known budget; when none is left it waits until the reset, then goes")
    func localAccountingUntilReset() {
        var budget = RateLimitBudget(bucket: nil)
        budget.record(RateLimitReading(remaining: 2, reset: .seconds(30)), block: nil, now: at(0))
        #expect(budget.admit(now: at(1), maxWait: nil, holdsToken: false) == .go)
        #expect(budget.admit(now: at(2), maxWait: nil, holdsToken: false) == .go)
        #expect(budget.remaining == 0)
        #expect(budget.admit(now: at(3), maxWait: nil, holdsToken: false) == .wait(until: at(30), reason: .budgetSpent))
        // The reset has passed: the budget is unknown again.
        #expect(budget.admit(now: at(30), maxWait: nil, holdsToken: false) == .go)
        #expect(budget.remaining == nil)
        #expect(budget.isIdle(at: at(30)))
    }

    @Test("The server's numbers replace the local count; without a reset a spent budget does not wait")
    func serverNumbersReplaceLocalOnes() {
        var budget = RateLimitBudget(bucket: nil)
        budget.record(RateLimitReading(remaining: 0, reset: .seconds(10)), block: nil, now: at(0))
        budget.record(RateLimitReading(remaining: 5, reset: .seconds(10)), block: nil, now: at(1))
        #expect(budget.admit(now: at(1), maxWait: nil, holdsToken: false) == .go)
        #expect(budget.remaining == 4)
        budget.record(RateLimitReading(remaining: 0, reset: nil), block: nil, now: at(2))
        #expect(budget.admit(now: at(2), maxWait: nil, holdsToken: false) == .go)
        #expect(!budget.isIdle(at: at(2)))
    }

    @Test("A 429's wait blocks until its end (the later of two), and a spent budget's later reset wins over it")
    func blockAndBudgetTogether() {
        var budget = RateLimitBudget(bucket: nil)
        budget.record(nil, block: .seconds(20), now: at(0))
        budget.record(nil, block: .seconds(5), now: at(1))
        #expect(budget.admit(now: at(2), maxWait: nil, holdsToken: false) == .wait(until: at(20), reason: .retryAfter))
        budget.record(RateLimitReading(remaining: 0, reset: .seconds(40)), block: nil, now: at(2))
        #expect(budget.admit(now: at(3), maxWait: nil, holdsToken: false) == .wait(until: at(42), reason: .budgetSpent))
        #expect(budget.admit(now: at(42), maxWait: nil, holdsToken: false) == .go)
    }

    @Test("A wait beyond maxWait is refused with its length and reason, and changes nothing")
    func refusalBeyondMaxWait() {
        var budget = RateLimitBudget(bucket: TokenBucket(rate: 1.0 / 128, capacity: 1))
        budget.record(RateLimitReading(remaining: 0, reset: .seconds(61)), block: nil, now: at(0))
        #expect(
            budget.admit(now: at(0), maxWait: .seconds(60), holdsToken: false)
                == .refuse(after: .seconds(61), reason: .budgetSpent))
        #expect(
            budget.admit(now: at(1), maxWait: .seconds(60), holdsToken: false)
                == .wait(until: at(61), reason: .budgetSpent))
        #expect(budget.admit(now: at(61), maxWait: .seconds(60), holdsToken: false) == .go)
        #expect(
            budget.admit(now: at(61), maxWait: .seconds(60), holdsToken: false)
                == .refuse(after: .seconds(128), reason: .tokenBucket))
        #expect(budget.admit(now: at(189), maxWait: .seconds(60), holdsToken: false) == .go)
    }

    @Test("The token bucket lets a burst go, then spaces calls exactly 1/rate apart, reserving in order")
    func tokenBucketSpacing() throws {
        var bucket = try #require(TokenBucket(rate: 4, capacity: 2))
        #expect(bucket.take(now: at(0), maxWait: nil) == .now)
        #expect(bucket.take(now: at(0), maxWait: nil) == .now)
        #expect(bucket.take(now: at(0), maxWait: nil) == .at(at(0.25)))
        #expect(bucket.take(now: at(0), maxWait: nil) == .at(at(0.5)))
        #expect(bucket.take(now: at(0), maxWait: .milliseconds(500)) == .tooLong(.milliseconds(750)))
        bucket.giveBack()
        #expect(bucket.take(now: at(0), maxWait: nil) == .at(at(0.5)))
        // Refilled after a pause: a full burst again, never more.
        #expect(bucket.take(now: at(10), maxWait: nil) == .now)
        #expect(bucket.take(now: at(10), maxWait: nil) == .now)
        #expect(bucket.take(now: at(10), maxWait: nil) == .at(at(10.25)))
        #expect(TokenBucket(rate: 0, capacity: 1) == nil)
        #expect(TokenBucket(rate: -1, capacity: 1) == nil)
        #expect(TokenBucket(rate: .infinity, capacity: 1) == nil)
        #expect(TokenBucket(rate: .nan, capacity: 1) == nil)
    }

    @Test("An extreme rate or burst is clamped, never an arithmetic overflow")
    func extremeBucketsAreClamped() throws {
        var slow = try #require(TokenBucket(rate: 1e-300, capacity: 1))
        #expect(slow.take(now: at(0), maxWait: nil) == .now)
        #expect(slow.take(now: at(0), maxWait: nil) == .at(at(1e9)))
        var wide = try #require(TokenBucket(rate: 1e-300, capacity: .max))
        #expect(wide.capacity == 1_000_000)
        #expect(wide.take(now: at(0), maxWait: nil) == .now)
    }

    @Test("A call that waited for its token does not take another, and gives it back when cancelled or refused")
    func heldTokenIsNotTakenTwice() {
        var budget = RateLimitBudget(bucket: TokenBucket(rate: 1, capacity: 1))
        #expect(budget.admit(now: at(0), maxWait: nil, holdsToken: false) == .go)
        #expect(budget.admit(now: at(0), maxWait: nil, holdsToken: false) == .wait(until: at(1), reason: .tokenBucket))
        #expect(budget.admit(now: at(1), maxWait: nil, holdsToken: true) == .go)
        #expect(budget.admit(now: at(1), maxWait: nil, holdsToken: false) == .wait(until: at(2), reason: .tokenBucket))
        budget.giveBackToken()  // that call was cancelled: the next one gets its turn
        #expect(budget.admit(now: at(1), maxWait: nil, holdsToken: false) == .wait(until: at(2), reason: .tokenBucket))
        budget.record(nil, block: .seconds(90), now: at(1))
        #expect(
            budget.admit(now: at(2), maxWait: .seconds(60), holdsToken: true)
                == .refuse(after: .seconds(89), reason: .retryAfter))
        #expect(budget.bucket?.isFull(at: at(2)) == true)
    }
}
