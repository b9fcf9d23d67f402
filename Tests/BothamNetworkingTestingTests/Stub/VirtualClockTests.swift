import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The clock itself: time moves only when advanced, sleepers wake in deadline order, cancellation, the bounded wait.
/// Every wait here is on the virtual clock; the time limit is shorter than the virtual time that passes, so a real
/// sleep would fail the suite.
@Suite("VirtualClock", .timeLimit(.minutes(1)))
struct VirtualClockTests {
    @Test("now and currentDate move only when the clock is advanced")
    func timeMovesOnlyWhenAdvanced() async {
        let start = Date(timeIntervalSince1970: 1_000)
        let clock = VirtualClock(startDate: start)
        let before = clock.now
        #expect(clock.now == before)
        #expect(clock.currentDate == start)
        await clock.advance(by: .seconds(90))
        #expect(clock.now - before == .seconds(90))
        #expect(clock.currentDate == start.addingTimeInterval(90))
        #expect(clock.elapsed == .seconds(90))
        await clock.advance(by: .seconds(-5))
        await clock.advance(to: before)
        #expect(clock.elapsed == .seconds(90), "the clock never goes back")
    }

    @Test("advance wakes the sleepers it reaches in deadline order, each at its own deadline")
    func wakesInDeadlineOrder() async throws {
        let clock = VirtualClock()
        let origin = clock.now
        let woken = Recorder<(Int, Duration)>()
        let sleepers = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                woken.append((seconds, clock.now - origin))
            }
        }
        try await clock.waitForSleepers(3)
        #expect(clock.pendingDeadlines == [origin + .seconds(1), origin + .seconds(2), origin + .seconds(3)])
        await clock.advance(by: .milliseconds(1_500))
        #expect(clock.sleeperCount == 2)
        await clock.advance(by: .seconds(2))
        for sleeper in sleepers { try await awaitingCancellably(sleeper) }
        #expect(woken.values.map(\.0) == [1, 2, 3])
        #expect(woken.values.map(\.1) == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(clock.elapsed == .milliseconds(3_500))
    }

    @Test("A sleep started by a woken task within the advance is woken by the same advance")
    func chainedSleepsWithinOneAdvance() async throws {
        let clock = VirtualClock()
        let origin = clock.now
        let chain = Task { () -> [Duration] in
            var seen: [Duration] = []
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(10))
                seen.append(clock.now - origin)
            }
            return seen
        }
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(10))
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(20))
        #expect(try await awaitingCancellably(chain) == [.seconds(10), .seconds(20), .seconds(30)])
        #expect(clock.sleeps == [.seconds(10), .seconds(10), .seconds(10)])
    }

    @Test("A cancelled sleeper stops sleeping with CancellationError and the clock does not move")
    func cancellation() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(3_600)) }
        try await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await awaitingCancellably(sleeper) }
        #expect(clock.sleeperCount == 0)
        #expect(clock.elapsed == .zero)

        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await awaitingCancellably(alreadyCancelled) }
    }

    @Test("Zero and past deadlines return at once and are recorded; advancesClock sleeps move the clock")
    func immediateSleeps() async throws {
        let clock = VirtualClock()
        try await clock.sleep(for: .zero)
        try await clock.sleep(until: clock.now - .seconds(5))
        #expect(clock.sleeps == [.zero, .zero])
        #expect(clock.elapsed == .zero)

        let jumping = VirtualClock(sleeping: .advancesClock)
        try await jumping.sleep(for: .seconds(30))
        try await jumping.sleep(for: .seconds(90))
        #expect(jumping.sleeps == [.seconds(30), .seconds(90)])
        #expect(jumping.elapsed == .seconds(120))
        #expect(jumping.sleeperCount == 0)
    }

    @Test("waitForSleepers is bounded: too few sleepers end it with Timeout")
    func waitIsBounded() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        try await clock.waitForSleepers(1)
        do {
            try await clock.waitForSleepers(2, timeout: .milliseconds(50))
            Issue.record("expected a timeout")
        } catch let timeout as VirtualClock.Timeout {
            #expect(timeout.expected == 2)
            #expect(timeout.sleeping == 1)
        }
        await clock.advance(by: .seconds(1))
        try await awaitingCancellably(sleeper)
    }

    @Test("It is a Swift Clock: Task.sleep(for:clock:) waits on it")
    func isASwiftClock() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await Task.sleep(for: .seconds(45), clock: clock) }
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(45))
        try await awaitingCancellably(sleeper)
        #expect(clock.sleeps == [.seconds(45)])
    }
}
