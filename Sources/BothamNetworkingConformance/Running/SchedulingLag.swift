import BothamNetworking

/// How late the machine ran a probe task while one check ran: a loaded machine delays every task (the transport's
/// answer reaches the check late too), so each upper time bound of the check is extended by what this measured.
///
/// The probe sleeps 5 ms at a time on the cooperative pool and adds up how much later than asked each sleep ended.
/// On an idle machine that is a few percent of the check's time; while parallel tests or a build hold every
/// thread, it is the time they held them. A transport that is late by itself is still late: the probe keeps
/// running beside it.
///
/// `Sendable`: its state is the `Lock`-guarded total and the task handle.
package final class SchedulingLag: Sendable {
    private static let period = Duration.milliseconds(5)
    private let total = Lock(Duration.zero)
    private let probe = Lock<Task<Void, Never>?>(nil)

    /// Starts measuring.
    package init() {
        let task = Task { [total] in
            var last = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.period)
                let now = ContinuousClock.now
                let late = now - last - Self.period
                if late > .zero { total.withLock { $0 += late } }
                last = now
            }
        }
        probe.withLock { $0 = task }
    }

    /// The lateness measured so far.
    package var measured: Duration { total.withLock { $0 } }

    /// Stops measuring.
    package func stop() {
        probe.withLock { $0?.cancel() }
    }

    deinit {
        stop()
    }
}
