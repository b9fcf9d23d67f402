import BothamNetworking
import Foundation

/// A clock that only moves when the test says so: give it to a client (`BothamAPIClient.Configuration.clock`) and
/// every time-based part of a call — retry sleeps and `Retry-After`, the call timeout, the token refresh limit, cache
/// freshness, cookie expiry, `EventSource` reconnection delays, ``StubHTTPClient`` latency
/// (``StubHTTPClient/LatencyMode/clock``) — waits on it instead of on real time.
///
/// ```swift
/// let clock = VirtualClock()
/// let apiClient = BothamAPIClient(
///     baseEndpoint: "https://api.example.com", httpClient: stubClient,
///     configuration: .init(retrier: RetryPolicy(jitter: .none), clock: clock))
/// let call = Task { await apiClient.GET("/feed") }
/// try await clock.waitForSleepers(1)         // the call is waiting before its first retry
/// #expect(clock.sleeps == [.milliseconds(500)])
/// await clock.advance(by: .milliseconds(500))  // the retry runs now; nothing slept for real
/// ```
///
/// - ``now`` and ``currentDate`` start at the instant the clock is made and at its start date, and move only by
///   ``advance(by:)`` / ``advance(to:)`` (or, with ``Sleeping/advancesClock``, by sleeping).
/// - ``advance(by:)`` wakes the sleepers whose deadline it reaches, in deadline order (ties in the order they began
///   to sleep), moving the time to each one's deadline as it wakes it; each woken sleeper has resumed before the
///   next is woken and before `advance` returns, and a sleep it starts meanwhile that falls within the advance is
///   woken too. What a woken task does afterwards runs concurrently: synchronise with it through
///   ``waitForSleepers(_:timeout:)`` or the call's own result, never by sleeping.
/// - Every sleep asked for is recorded in ``sleeps`` (as the duration from the time it was asked), zero and past
///   deadlines included; those return at once.
/// - A sleeping task that is cancelled stops sleeping with `CancellationError`.
public final class VirtualClock: HTTPClock {
    /// What a sleep does.
    public enum Sleeping: Sendable, Hashable {
        /// A sleep waits until the test advances the clock past its deadline (the default).
        case waitsForAdvance
        /// A sleep moves the clock to its deadline and returns at once: for tests that only check what was waited
        /// (``sleeps``), never when. Every timer of a call fires at once in this mode, so do not combine it with a
        /// call timeout.
        case advancesClock
    }

    /// ``waitForSleepers(_:timeout:)`` ran out before enough tasks were sleeping.
    public struct Timeout: Error, Sendable, CustomStringConvertible {
        /// How many sleepers were awaited.
        package let expected: Int
        /// How many were sleeping when the wait ended.
        package let sleeping: Int

        /// Says how many were expected and sleeping.
        public var description: String {
            "VirtualClock: waited for \(expected) sleepers, but \(sleeping) were sleeping when the wait timed out"
        }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State: CountWaitingState {
        var elapsed: Duration = .zero
        /// Sorted by deadline, then by id (the order they began to sleep).
        var sleepers: [Sleeper] = []
        var sleeps: [Duration] = []
        var cancelled: Set<UInt64> = []
        var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        /// Sleepers `advance` woke that have not yet resumed; those that have; and `advance` calls waiting for one.
        var woken: Set<UInt64> = []
        var resumed: Set<UInt64> = []
        var resumeWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        mutating func insert(_ sleeper: Sleeper) {
            let index =
                sleepers.firstIndex { ($0.deadline, $0.id) > (sleeper.deadline, sleeper.id) } ?? sleepers.endIndex
            sleepers.insert(sleeper, at: index)
        }

        var currentCount: Int { sleepers.count }
    }

    /// The wall-clock date at which the clock started.
    package let startDate: Date
    /// What a sleep does.
    package let sleeping: Sleeping
    private let origin: ContinuousClock.Instant
    private let state = Lock(State())

    /// A clock at `startDate` (by default 2023-11-14 22:13:20 UTC) that moves only when advanced.
    ///
    /// - Parameters:
    ///   - startDate: What ``currentDate`` says before the clock is advanced.
    ///   - sleeping: Whether a sleep waits for ``advance(by:)`` (the default) or advances the clock itself.
    public init(startDate: Date = Date(timeIntervalSince1970: 1_700_000_000), sleeping: Sleeping = .waitsForAdvance) {
        self.startDate = startDate
        self.sleeping = sleeping
        origin = .now
    }

    /// How far the clock has been advanced.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// The current instant: the instant the clock was made plus ``elapsed``.
    public var now: ContinuousClock.Instant { origin + elapsed }

    /// The start date given to ``init(startDate:sleeping:)`` plus ``elapsed``.
    public var currentDate: Date { startDate.addingTimeInterval(Self.seconds(elapsed)) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Every sleep asked for so far, in order, each as the duration from the time it was asked to its deadline
    /// (zero for a deadline that had passed).
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// How many tasks are sleeping on the clock now.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks sleeping now, soonest first.
    package var pendingDeadlines: [ContinuousClock.Instant] {
        state.withLock { $0.sleepers.map { origin + $0.deadline } }
    }

    /// Sleeps until the clock is advanced to `deadline` (``Sleeping/waitsForAdvance``), or moves the clock there
    /// (``Sleeping/advancesClock``); returns at once for a deadline that is not in the future.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, before or while it sleeps.
    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let target = deadline - origin
        let mustWait = state.withLock { state -> Bool in
            state.sleeps.append(max(.zero, target - state.elapsed))
            guard target > state.elapsed else { return false }
            if sleeping == .advancesClock {
                state.elapsed = target
                return false
            }
            return true
        }
        guard mustWait else { return }
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let arrival = state.withLock { state -> Arrival in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if target <= state.elapsed { return .due }
                    state.insert(Sleeper(id: id, deadline: target, continuation: continuation))
                    return .sleeping(ready: state.readyWaiters())
                }
                switch arrival {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()  // the clock passed the deadline before the sleeper was stored
                case .sleeping(let ready): for waiter in ready { waiter.resume(returning: true) }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // Tell the `advance` that woke this sleeper that it is running again.
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled.remove(id)
            guard state.woken.remove(id) != nil else { return nil }
            if let waiter = state.resumeWaiters.removeValue(forKey: id) { return waiter }
            state.resumed.insert(id)
            return nil
        }
        waiter?.resume()
    }

    /// What a sleeper found when it came to store itself.
    private enum Arrival {
        case cancelled
        case due
        case sleeping(ready: [CheckedContinuation<Bool, Never>])
    }

    /// Moves the clock `duration` forward, waking the sleepers it reaches in deadline order; see ``VirtualClock``.
    /// A negative duration does nothing.
    public func advance(by duration: Duration) async {
        let target = state.withLock { $0.elapsed } + max(.zero, duration)
        await advance(toElapsed: target)
    }

    /// Moves the clock forward to `instant` (nothing when it is not in the future), waking the sleepers it reaches
    /// in deadline order; see ``VirtualClock``.
    public func advance(to instant: ContinuousClock.Instant) async {
        await advance(toElapsed: instant - origin)
    }

    /// Waits until at least `count` tasks are sleeping on the clock, at most `timeout` of real time (a bound for a
    /// test that would otherwise hang, not a way of waiting).
    ///
    /// - Throws: ``Timeout`` when they are not sleeping in time, and `CancellationError` when the task is cancelled.
    public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        let reached = try await state.waitUntil(countReaches: count, timeout: timeout)
        if !reached { throw Timeout(expected: count, sleeping: sleeperCount) }
    }

    private func advance(toElapsed target: Duration) async {
        while true {
            let woken = state.withLock { state -> Sleeper? in
                guard let first = state.sleepers.first, first.deadline <= target else {
                    state.elapsed = max(state.elapsed, target)
                    return nil
                }
                state.sleepers.removeFirst()
                state.woken.insert(first.id)
                state.elapsed = max(state.elapsed, first.deadline)
                return first
            }
            guard let woken else { return }
            woken.continuation.resume()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let hasResumed = state.withLock { state -> Bool in
                    if state.resumed.remove(woken.id) != nil { return true }
                    state.resumeWaiters[woken.id] = continuation
                    return false
                }
                if hasResumed { continuation.resume() }
            }
            // Give the woken task a chance to reach its next suspension (a new sleep is then woken in this advance).
            for _ in 0..<Self.yieldsPerWake { await Task.yield() }
        }
    }

    private static let yieldsPerWake = 16

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
