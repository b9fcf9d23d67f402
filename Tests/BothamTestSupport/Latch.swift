import BothamNetworking

/// A one-way gate: ``wait()`` suspends until ``open()`` is called, or until the waiting task is cancelled.
///
/// A plain `withCheckedContinuation` that only `open()` resumes would keep a test waiting forever when an earlier step
/// failed and nobody opens it: a test's `.timeLimit` cancels the test, but cannot resume such a continuation. A
/// waiter here ends at once when its task is cancelled, so the test fails instead of hanging. Shared by the test
/// targets; not part of any product.
public final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var lastID = 0
    }

    private let state = Lock(State())

    /// A closed latch.
    public init() {}

    /// Opens the latch: every waiter, and every later one, goes on at once.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Waits until the latch is open; returns `true` then, or `false` when the waiting task was cancelled first.
    @discardableResult
    public func wait() async -> Bool {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.isOpen { return true }
                    // The cancellation handler takes the same lock: it runs after this waiter is installed, or
                    // `isCancelled` is already true here.
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }
}
