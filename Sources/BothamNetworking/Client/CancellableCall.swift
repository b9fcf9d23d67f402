/// A handle to a call started with a completion handler.
public struct CancellableCall: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the call: it ends with ``APIClientError/cancelled`` and is never retried.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }

    /// Waits until the completion handler has been called (or dispatched to its queue).
    public func wait() async {
        await task.value
    }
}
