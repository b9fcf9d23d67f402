import Dispatch

/// Runs the jobs of custom ``NameResolving`` resolvers on dispatch threads (the system resolver's concurrent
/// queue), so that a lookup never waits for Swift's cooperative pool, and a resolver that blocks blocks neither the
/// pool nor the event loop.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ResolverExecutor: TaskExecutor {
    /// The one executor of every client.
    static let shared = ResolverExecutor()

    private let queue = DispatchQueue(label: "BothamNetworkingNative.ResolverExecutor", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
