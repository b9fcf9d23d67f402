import BothamNetworking

/// One connection's worth of permission to send: a semaphore of one, whose waiters leave when their task is
/// cancelled (a check that gives up on a call cancels it).
final class ConnectionSlot: Sendable {
    private struct State {
        var busy = false
        var nextWaiter: UInt64 = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var cancelled: Set<UInt64> = []
    }

    private let state = Lock(State())

    /// Waits for the slot; `false` when the task was cancelled first.
    func acquire() async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let granted: Bool? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return false }
                    if !state.busy {
                        state.busy = true
                        return true
                    }
                    state.waiters.append((id: id, continuation: continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Gives the slot to the longest waiter, or frees it.
    func release() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
