/// At most `limit` calls in flight per key; the others wait for a slot in the order they came (FIFO), behind one
/// ``Lock``. A waiter whose task is cancelled leaves the queue at once with `CancellationError`; a slot that is
/// released goes straight to the first waiter, so nobody overtakes the queue.
package final class ConcurrencyLimiter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Slots {
        var inFlight = 0
        var waiters: [Waiter] = []
    }

    private struct State {
        var keys: [String: Slots] = [:]
        /// Waiters cancelled before they were queued.
        var cancelled: Set<UInt64> = []
        var lastID: UInt64 = 0
    }

    /// The most calls in flight per key (at least 1).
    package let limit: Int
    private let state = Lock(State())

    /// A limiter of `limit` (at least 1) calls in flight per key.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a slot of `key` when one is free and nobody is waiting for one; `false` otherwise (nothing taken).
    package func tryAcquire(_ key: String) -> Bool {
        state.withLock { state in
            let slots = state.keys[key] ?? Slots()
            guard slots.inFlight < limit, slots.waiters.isEmpty else { return false }
            state.keys[key, default: Slots()].inFlight += 1
            return true
        }
    }

    /// Waits for a slot of `key` behind the calls already waiting (takes it at once when one is free and nobody
    /// waits). Every slot taken must be given back with ``release(_:)``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before it gets its slot (it then holds none).
    package func acquire(_ key: String) async throws {
        let id = state.withLock { state in
            state.lastID &+= 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    // Checked under the lock the cancellation handler takes: either it runs after this waiter is
                    // queued (and finds it), or it ran before (and left its id here).
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    var slots = state.keys[key] ?? Slots()
                    defer { state.keys[key] = slots }
                    if slots.inFlight < limit && slots.waiters.isEmpty {
                        slots.inFlight += 1
                        return .success(())
                    }
                    slots.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.keys[key]?.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.keys[key]?.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        // An id left behind by a cancellation that came after the slot was granted.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Gives back a slot of `key`: the first waiter gets it, or it is free again.
    package func release(_ key: String) {
        let next = state.withLock { state -> Waiter? in
            guard var slots = state.keys[key] else { return nil }
            if slots.waiters.isEmpty {
                slots.inFlight -= 1
                state.keys[key] = slots.inFlight > 0 ? slots : nil
                return nil
            }
            let first = slots.waiters.removeFirst()
            state.keys[key] = slots
            return first
        }
        next?.continuation.resume()
    }

    /// How many calls of `key` are in flight now.
    package func inFlight(_ key: String) -> Int {
        state.withLock { $0.keys[key]?.inFlight ?? 0 }
    }

    /// How many calls of `key` wait for a slot now.
    package func waiting(_ key: String) -> Int {
        state.withLock { $0.keys[key]?.waiters.count ?? 0 }
    }
}
