import BothamNetworking

/// How late the machine runs tasks: a probe task sleeps 5 ms at a time on the cooperative pool and adds up how much
/// later than asked each sleep ended. On an idle machine that is a few percent of the time measured; while other
/// work holds every thread, it is the time that work held them.
///
/// Timing checks extend their upper bounds by it (the conformance suite's checks, this package's timing tests): a
/// loaded machine delays every task, the answer a check waits for included. What is credited is capped (a wait is
/// at most doubled, a duration's bound gets at most itself again), so a transport that holds the threads itself
/// cannot buy unlimited time. Not part of the product's public API; this package's timing tests use it too.
///
/// `Sendable`: its state is behind the `Lock`.
package final class SchedulingLag: Sendable {
    private static let period = Duration.milliseconds(5)
    /// How long the history kept for ``measured(since:)`` reaches back.
    private static let history = Duration.seconds(300)

    private struct State {
        var total = Duration.zero
        /// The total after each late wake-up, in time order, for the last ``history``.
        var samples: [(at: ContinuousClock.Instant, total: Duration)] = []
        /// The total of the last sample dropped from the history.
        var dropped = Duration.zero
        /// When the probe last woke (or started): a wake-up overdue now is lateness already, though not yet added.
        var lastWake: ContinuousClock.Instant
        var probe: Task<Void, Never>?

        /// How late the probe's next wake-up is at `now`.
        func overdue(at now: ContinuousClock.Instant) -> Duration {
            max(.zero, now - lastWake - SchedulingLag.period)
        }
    }

    private let state: Lock<State>

    /// Starts measuring.
    package init() {
        // From now, not from when the task first runs: a probe that cannot even start is held up too.
        let state = Lock(State(lastWake: .now))
        self.state = state
        let task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.period)
                let now = ContinuousClock.now
                state.withLock { state in
                    let late = state.overdue(at: now)
                    state.lastWake = now
                    guard late > .zero else { return }
                    state.total += late
                    state.samples.append((now, state.total))
                    if let first = state.samples.first, now - first.at > Self.history * 2 {
                        let kept = state.samples.firstIndex { now - $0.at <= Self.history } ?? state.samples.count
                        state.dropped = state.samples[kept - 1].total
                        state.samples.removeFirst(kept)
                    }
                }
            }
        }
        state.withLock { $0.probe = task }
    }

    /// The lateness measured since this probe started.
    package var measured: Duration { state.withLock { $0.total + $0.overdue(at: .now) } }

    /// The lateness measured since `instant` (as far back as five minutes).
    package func measured(since instant: ContinuousClock.Instant) -> Duration {
        state.withLock { state in
            // The total just before `instant`: that of the last sample taken before it.
            var low = 0
            var high = state.samples.count
            while low < high {
                let middle = (low + high) / 2
                if state.samples[middle].at < instant { low = middle + 1 } else { high = middle }
            }
            let before = low == 0 ? state.dropped : state.samples[low - 1].total
            return state.total - before + state.overdue(at: .now)
        }
    }

    /// Stops measuring.
    package func stop() {
        state.withLock { $0.probe?.cancel() }
    }

    deinit {
        stop()
    }
}
