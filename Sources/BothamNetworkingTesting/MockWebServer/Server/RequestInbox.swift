import BothamNetworking

/// The recorded requests not yet taken, and the callers of ``MockWebServer/takeRequest(timeout:)`` waiting for
/// one. Each request goes to exactly one taker, in arrival order.
final class RequestInbox: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<RecordedRequest, any Error>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var requests: [RecordedRequest] = []
        var waiters: [Waiter] = []
        var receivedCount = 0
        var nextWaiterID = 0
        var isShutDown = false
    }

    private let state = Lock(State())

    /// How many requests were recorded, taken or not.
    var receivedCount: Int {
        state.withLock { $0.receivedCount }
    }

    /// Hands `request` to the oldest waiter, or keeps it for the next taker.
    func record(_ request: RecordedRequest) {
        let waiter: Waiter? = state.withLock { state in
            state.receivedCount += 1
            guard !state.waiters.isEmpty else {
                state.requests.append(request)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: request)
    }

    /// Fails every waiter: no request will arrive any more. Recorded requests can still be taken.
    func shutDown() {
        let waiters = state.withLock { state in
            state.isShutDown = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(throwing: MockWebServerError.serverShutDown)
        }
    }

    /// Returns the oldest recorded request, waiting up to `timeout` for one. Never blocks a thread: the caller is
    /// suspended on a continuation that a connection thread, a timer task or cancellation resumes.
    func take(timeout: Duration) async throws -> RecordedRequest {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<RecordedRequest, any Error>) in
                let immediate: Result<RecordedRequest, any Error>? = state.withLock { state in
                    if !state.requests.isEmpty { return .success(state.requests.removeFirst()) }
                    if state.isShutDown { return .failure(MockWebServerError.serverShutDown) }
                    // Checked under the lock: the cancellation handler takes the same lock, so either it runs
                    // after this waiter is registered, or `isCancelled` is already true here.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append(Waiter(id: id, continuation: continuation, timer: nil))
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                let timer = Task { [self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self.fail(waiter: id, with: MockWebServerError.timeout(timeout))
                }
                let isWaiting = state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiters[index].timer = timer
                    return true
                }
                if !isWaiting { timer.cancel() }
            }
        } onCancel: {
            self.fail(waiter: id, with: CancellationError())
        }
    }

    /// Resumes waiter `id` with `error`, if it is still waiting.
    private func fail(waiter id: Int, with error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(throwing: error)
    }
}
