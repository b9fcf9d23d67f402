/// Awaits `task`'s value, and cancels `task` if the awaiting task is cancelled first.
///
/// `await task.value` of an unstructured `Task { }` ignores cancellation: when a test's `.timeLimit` cancels the test
/// after an earlier bounded wait failed, the test would go on waiting for work parked in a `HeldTransport`, a gate or
/// a continuation that will now never be released, and the whole run would hang. Awaited through this, the time limit
/// reaches the work: a held send ends with `APIClientError.cancelled`, the test gets that value and fails instead of
/// hanging. Shared by the test targets; not part of any product.
public func awaitingCancellably<Success: Sendable>(_ task: Task<Success, Never>) async -> Success {
    await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }
}

/// Awaits a throwing `task`'s value, and cancels `task` if the awaiting task is cancelled first (see the non-throwing
/// form).
public func awaitingCancellably<Success: Sendable>(_ task: Task<Success, any Error>) async throws -> Success {
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}

/// Awaits every task's value in order, and cancels all of them if the awaiting task is cancelled first (see the
/// single-task form).
public func awaitingCancellably<Success: Sendable>(_ tasks: [Task<Success, Never>]) async -> [Success] {
    await withTaskCancellationHandler {
        var values: [Success] = []
        values.reserveCapacity(tasks.count)
        for task in tasks { values.append(await task.value) }
        return values
    } onCancel: {
        for task in tasks { task.cancel() }
    }
}
