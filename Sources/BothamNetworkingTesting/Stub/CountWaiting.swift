import BothamNetworking

/// The state of a test tool that tasks can wait on until a count reaches theirs: the requests a `StubGate` holds, the
/// tasks sleeping on a `VirtualClock`. (`SendableMetatype`: the waits run in child tasks and cancellation handlers,
/// which capture the state's type.)
protocol CountWaitingState: SendableMetatype {
    /// The count waited on (held requests, sleeping tasks).
    var currentCount: Int { get }
    /// The tasks waiting, each until the count reaches its own.
    var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Bool, Never>)] { get set }
    /// Ids whose task was cancelled before it began to wait.
    var cancelled: Set<UInt64> { get set }
    /// A new id (never reused).
    mutating func makeID() -> UInt64
}

extension CountWaitingState {
    /// The waiters whose count is reached, removed: resume each with `true`.
    mutating func readyWaiters() -> [CheckedContinuation<Bool, Never>] {
        let count = currentCount
        let ready = waiters.filter { $0.count <= count }
        waiters.removeAll { $0.count <= count }
        return ready.map(\.continuation)
    }
}

extension Lock where Value: CountWaitingState {
    /// Waits until the count reaches `count`, at most `timeout` of real time (a bound for a test that would otherwise
    /// hang, not a way of waiting). Returns whether it did.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func waitUntil(countReaches count: Int, timeout: Duration) async throws -> Bool {
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitUntil(countReaches: count) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        try Task.checkCancellation()
        return reached
    }

    /// Whether the count came to reach `count` (`false` when the waiting task was cancelled first).
    private func waitUntil(countReaches count: Int) async -> Bool {
        let id = withLock { $0.makeID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = withLock { state in
                    if state.cancelled.remove(id) != nil { return false }
                    if state.currentCount >= count { return true }
                    state.waiters.append((id, count, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil as CheckedContinuation<Bool, Never>?
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }
}
