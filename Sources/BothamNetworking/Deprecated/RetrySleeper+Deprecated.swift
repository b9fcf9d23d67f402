// The release before the one clock of a call injected waits through RetrySleeper (#34: a removed type keeps a
// deprecated shim for at least one minor version). A sleeper set through the old spellings becomes the sleeping
// half of the call's clock.
import Foundation

/// Waits between attempts. Injectable so tests can record the schedule instead of sleeping.
@available(*, deprecated, message: "a call waits on BothamAPIClient.Configuration.clock: a VirtualClock in tests")
public struct RetrySleeper: Sendable {
    let sleep: @Sendable (Duration) async throws -> Void

    /// A sleeper from a closure. It should throw `CancellationError` when the task is cancelled.
    public init(_ sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.sleep = sleep
    }

    /// Waits for `duration`.
    public func callAsFunction(_ duration: Duration) async throws {
        try await sleep(duration)
    }

    /// Sleeps on `ContinuousClock` (cancellable). The default.
    public static let continuous = RetrySleeper { duration in
        if duration > .zero { try await Task.sleep(for: duration) }
    }
}

/// A clock that tells the time of `base` and waits through a sleeper closure: what a `RetrySleeper` set through the
/// deprecated spellings turns into.
struct SleeperClock: HTTPClock {
    let base: any HTTPClock
    let sleep: @Sendable (Duration) async throws -> Void

    var now: ContinuousClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }
    var currentDate: Date { base.currentDate }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        try await sleep(base.now.duration(to: deadline))
    }
}
