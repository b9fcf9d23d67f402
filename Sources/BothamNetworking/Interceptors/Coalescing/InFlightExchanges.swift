/// The coalescer's cross-call state, behind one ``Lock``: the exchanges in flight (one per ``CoalescingKey``, each
/// with the calls waiting for it) and the remembered `Vary` names.
///
/// An exchange is sent by a task of its own (through the `next` of the call that started it), so that no caller's
/// cancellation cancels it: a caller that cancels is removed and answered with `nil` at once, and the task is
/// cancelled when the last caller leaves. An exchange leaves the table when it ends or when its last caller leaves,
/// whichever comes first, so the table holds only exchanges someone still waits for.
final class InFlightExchanges: Sendable {
    /// How a caller's wait ended.
    enum Answer: Sendable {
        /// The caller started the exchange; this is what `next` returned.
        case started(Result<HTTPResponse, APIClientError>)
        /// The caller joined an exchange another call started with `sent`.
        case joined(Result<HTTPResponse, APIClientError>, sent: HTTPRequest)
    }

    private struct Exchange {
        let id: UInt64
        let starter: UInt64
        let request: HTTPRequest
        let task: Task<Void, Never>
        var waiters: [UInt64: CheckedContinuation<Answer?, Never>]
    }

    private struct State {
        var exchanges: [CoalescingKey: Exchange] = [:]
        var vary: VaryMemory
        var lastID: UInt64 = 0

        mutating func nextID() -> UInt64 {
            lastID &+= 1
            return lastID
        }
    }

    private let state: Lock<State>

    /// An empty table that remembers the `Vary` names of at most `varyCapacity` methods and URLs.
    init(varyCapacity: Int) {
        state = Lock(State(vary: VaryMemory(capacity: varyCapacity)))
    }

    /// How many exchanges are in flight.
    var exchangeCount: Int {
        state.withLock { $0.exchanges.count }
    }

    /// How many calls wait for an exchange, over every exchange.
    var waiterCount: Int {
        state.withLock { $0.exchanges.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// The `Vary` names remembered for `target`.
    func varyNames(for target: VaryMemory.Target) -> VaryNames? {
        state.withLock { $0.vary.names(for: target) }
    }

    /// Remembers the `Vary` names of `response`, the answer to a request for `target`.
    func remember(_ response: HTTPResponse, for target: VaryMemory.Target) {
        let vary = VaryNames(of: response)
        state.withLock { $0.vary.remember(vary, for: target) }
    }

    /// Waits for the exchange of `key`, starting it with `request` through `next` when none is in flight. Returns
    /// `nil` when the calling task is cancelled (at once; the exchange goes on for the other callers).
    func answer(for request: HTTPRequest, key: CoalescingKey, next: HTTPInterceptorNext) async -> Answer? {
        let waiter = state.withLock { $0.nextID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
                let waiting = state.withLock { state in
                    // Checked under the lock: the cancellation handler takes the same lock, so either it runs after
                    // this waiter is registered, or `isCancelled` is already true here.
                    guard !Task.isCancelled else { return false }
                    if state.exchanges[key] != nil {
                        state.exchanges[key]?.waiters[waiter] = continuation
                        return true
                    }
                    let id = state.nextID()
                    // A task of its own, not a child: the caller's cancellation must not reach it. It inherits the
                    // caller's task-local values (`HTTPCallContext.current` is the starting call's).
                    let task = Task { [self] in
                        let result: Result<HTTPResponse, APIClientError>
                        do throws(APIClientError) {
                            result = .success(try await next(request))
                        } catch {
                            result = .failure(error)
                        }
                        finish(key, id: id, with: result)
                    }
                    state.exchanges[key] = Exchange(
                        id: id, starter: waiter, request: request, task: task, waiters: [waiter: continuation])
                    return true
                }
                if !waiting { continuation.resume(returning: nil) }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// Removes `waiter` from the exchange of `key` and answers it with `nil`; the last one to leave takes the
    /// exchange out of the table and cancels it.
    private func leave(_ key: CoalescingKey, waiter: UInt64) {
        typealias Left = (continuation: CheckedContinuation<Answer?, Never>?, abandoned: Task<Void, Never>?)
        let (continuation, abandoned) = state.withLock { state -> Left in
            guard let continuation = state.exchanges[key]?.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            guard state.exchanges[key]?.waiters.isEmpty == true else { return (continuation, nil) }
            return (continuation, state.exchanges.removeValue(forKey: key)?.task)
        }
        continuation?.resume(returning: nil)
        // Outside the lock: cancelling runs the transport's cancellation handlers.
        abandoned?.cancel()
    }

    /// Ends exchange `id` of `key` with `result`: it leaves the table and every caller still waiting gets `result`.
    private func finish(_ key: CoalescingKey, id: UInt64, with result: Result<HTTPResponse, APIClientError>) {
        let vary = (try? result.get()).map { VaryNames(of: $0) }
        let ended: Exchange? = state.withLock { state in
            if let vary { state.vary.remember(vary, for: key.target) }
            guard state.exchanges[key]?.id == id else { return nil }
            return state.exchanges.removeValue(forKey: key)
        }
        guard let ended else { return }
        for (waiter, continuation) in ended.waiters {
            let answer: Answer = waiter == ended.starter ? .started(result) : .joined(result, sent: ended.request)
            continuation.resume(returning: answer)
        }
    }
}
