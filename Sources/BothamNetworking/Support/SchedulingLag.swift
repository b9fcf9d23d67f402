/// How late the machine runs tasks: a probe task sleeps 5 ms at a time on the cooperative pool and adds up how much
/// later than asked each sleep ended. On an idle machine that is a few percent of the time measured; while other
/// work holds every thread, it is the time that work held them.
///
/// Timing checks extend their upper bounds by it (the conformance suite's checks, this package's timing tests): a
/// loaded machine delays every task, the answer a check waits for included, but a transport that is late by itself
/// is still late, since the probe runs beside it. Not part of any product's public API.
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
        var probe: Task<Void, Never>?
    }

    private let state = Lock(State())

    /// Starts measuring.
    package init() {
        let task = Task { [state] in
            var last = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.period)
                let now = ContinuousClock.now
                let late = now - last - Self.period
                last = now
                guard late > .zero else { continue }
                state.withLock { state in
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
    package var measured: Duration { state.withLock { $0.total } }

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
            return state.total - (low == 0 ? state.dropped : state.samples[low - 1].total)
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
