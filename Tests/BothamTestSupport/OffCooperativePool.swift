import Dispatch

/// Runs `work`, which blocks (child processes, blocking reads of their output), on a Dispatch thread and returns what
/// it returns: blocking work must not hold one of the few cooperative threads (two on this machine kind) that the
/// timing-sensitive tests running beside it need.
public func offCooperativePool<Value: Sendable>(
    _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
