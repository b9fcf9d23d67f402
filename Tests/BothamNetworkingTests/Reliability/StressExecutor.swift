import Dispatch

/// Runs the stress test's tasks on a queue of their own instead of Swift's shared cooperative pool, so 10,000 queued
/// calls do not delay the continuations of the suites running in parallel (many of them measure time).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class StressExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "BothamNetworkingTests.stress", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
