import Dispatch

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

extension CancellableCall {
    /// Runs `operation` in a new task and calls `completion` exactly once with its result, on `queue` when there is
    /// one, otherwise on the task that finished: the one place the completion-handler forms dispatch their results.
    static func start<Value: Sendable>(
        deliveringOn queue: DispatchQueue?,
        completion: @escaping @Sendable (Result<Value, APIClientError>) -> Void,
        _ operation: @escaping @Sendable () async -> Result<Value, APIClientError>
    ) -> CancellableCall {
        let task = Task {
            let result = await operation()
            if let queue { queue.async { completion(result) } } else { completion(result) }
        }
        return CancellableCall(task: task)
    }
}
