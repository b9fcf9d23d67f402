import BothamNetworking

/// Runs work for at most a given time, however the transport behaves: a transport that ignores cancellation, or
/// never answers, cannot hold a check (or the suite) past its bound.
enum BoundedWait {
    /// The value of `operation`, or `nil` when it has not finished within `limit`. The operation is then cancelled
    /// and left to end on its own: its check shuts its servers down, which ends any socket it still waits on.
    ///
    /// With `lag`, the limit is extended by the scheduling delay measured while waiting (at most doubled): a machine
    /// that held every thread for a while does not make the operation late.
    static func run<T: Sendable>(
        within limit: Duration, extendedBy lag: SchedulingLag? = nil, _ operation: @escaping @Sendable () async -> T
    ) async -> T? {
        let slot = Lock<CheckedContinuation<T?, Never>?>(nil)
        let resume: @Sendable (T?) -> Void = { value in
            slot.withLock { continuation in
                continuation?.resume(returning: value)
                continuation = nil
            }
        }
        let tasks = Lock<[Task<Void, Never>]>([])
        let cancelAll: @Sendable () -> Void = {
            tasks.withLock { running in
                for task in running { task.cancel() }
            }
        }
        let value = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                slot.withLock { $0 = continuation }
                let operationTask = Task { resume(await operation()) }
                let timerTask = Task {
                    var wait = limit
                    var extended = Duration.zero
                    var counted = lag?.measured ?? .zero
                    while true {
                        try? await Task.sleep(for: wait)
                        guard !Task.isCancelled, let lag else { break }
                        let grown = lag.measured - counted
                        guard grown > .milliseconds(1), extended < limit else { break }
                        counted += grown
                        wait = min(grown, limit - extended)
                        extended += wait
                    }
                    resume(nil)
                    operationTask.cancel()
                }
                tasks.withLock { $0 = [operationTask, timerTask] }
            }
        } onCancel: {
            cancelAll()
        }
        // The timer is no longer needed; the operation either finished or was cancelled by it.
        cancelAll()
        return value
    }
}
