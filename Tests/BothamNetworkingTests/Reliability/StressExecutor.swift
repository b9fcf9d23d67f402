import Dispatch

/// Runs the stress test's tasks on a queue of their own instead of Swift's shared cooperative pool, so 10,000 queued
/// calls do not delay the continuations of the suites running in parallel (many of them measure time).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class StressExecutor: TaskExecutor {
    /// One serial queue on the width-limited utility root queue: the stress test takes at most one core, so the
    /// timing-sensitive suites running in parallel keep the other (a concurrent queue took both and made their
    /// deadlines fire seconds late on this 2-core machine). Calls and churners still interleave at every suspension.
    private let queue = DispatchQueue(
        label: "BothamNetworkingTests.stress", qos: .utility, target: .global(qos: .utility))

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
