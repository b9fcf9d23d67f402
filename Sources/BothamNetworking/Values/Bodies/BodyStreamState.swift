import Foundation

/// The shared state of one ``HTTPBodyStream``: a bounded queue of chunks between one producer (a transport) and one
/// consumer (the caller's `for await` loop).
///
/// The producer never blocks: ``HTTPBodyStream/Continuation/yield(_:)`` always keeps the chunk and answers whether
/// the buffer is full, and the producer stops reading until `onDemand` is called. The consumer suspends while the
/// queue is empty. When the consumer goes away (cancelled, stopped iterating, the stream released), `onCancel` is
/// called once, so the transport can end the request and free its connection.
///
/// `Sendable`: every mutable field is behind the ``Lock``; the callbacks are `@Sendable` and called outside it.
final class BodyStreamState: Sendable {
    enum Ending: Sendable {
        case finished
        case failed(APIClientError)
    }

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var ending: Ending?
        var consumerGone = false
        var paused = false
        var waiter: CheckedContinuation<Result<Data?, APIClientError>, Never>?
        var demandWaiter: CheckedContinuation<Bool, Never>?
        var delivered = 0
        var endObservers: [@Sendable (HTTPBodyStream.Summary) -> Void] = []
        var summary: HTTPBodyStream.Summary?
    }

    let bufferLimit: Int
    private let lowWater: Int
    private let state = Lock(State())
    private let onDemand: (@Sendable () -> Void)?
    private let onCancel: (@Sendable () -> Void)?
    /// The clock the body's duration is measured on, and when the stream was made on it.
    private let clock: any HTTPClock
    private let startedAt: ContinuousClock.Instant

    init(
        bufferLimit: Int, onDemand: (@Sendable () -> Void)?, onCancel: (@Sendable () -> Void)?,
        clock: any HTTPClock = .system
    ) {
        self.clock = clock
        startedAt = clock.now
        self.bufferLimit = max(1, bufferLimit)
        lowWater = max(0, bufferLimit / 4)
        self.onDemand = onDemand
        self.onCancel = onCancel
    }

    // MARK: Producer

    func yield(_ chunk: Data) -> HTTPBodyStream.YieldResult {
        guard !chunk.isEmpty else { return .enqueued }
        let (result, waiter) = state.withLock {
            state -> (HTTPBodyStream.YieldResult, CheckedContinuation<Result<Data?, APIClientError>, Never>?) in
            if state.consumerGone { return (.dropped, nil) }
            if state.ending != nil { return (.dropped, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                state.delivered += chunk.count
                return (.enqueued, waiter)
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            if state.buffered >= bufferLimit {
                state.paused = true
                return (.pause, nil)
            }
            return (.enqueued, nil)
        }
        waiter?.resume(returning: .success(chunk))
        return result
    }

    /// Waits until the consumer wants more (or is gone); `false` when it is gone.
    /// A cancelled producing task stops waiting at once and gets `false` too.
    func waitForDemand() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { state in
                    if state.consumerGone { return false }
                    if !state.paused { return true }
                    // The cancellation handler takes the same lock: it runs after the waiter is stored, or
                    // `isCancelled` is already true here.
                    if Task.isCancelled { return false }
                    state.demandWaiter = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.demandWaiter = nil }
                return state.demandWaiter
            }
            waiter?.resume(returning: false)
        }
    }

    func finish(_ ending: Ending) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Data?, APIClientError>, Never>? in
            guard state.ending == nil else { return nil }
            state.ending = ending
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        guard let waiter else { return }
        switch ending {
        case .finished: waiter.resume(returning: .success(nil))
        case .failed(let error): waiter.resume(returning: .failure(error))
        }
    }

    var isConsumerGone: Bool { state.withLock { $0.consumerGone } }

    // MARK: Consumer

    func next() async -> Result<Data?, APIClientError> {
        if let ready = takeReady() { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data?, APIClientError>, Never>) in
                if let ready = takeReady(installing: continuation) { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel(with: .cancelled)
        }
    }

    /// A chunk, the end or a failure if one is ready; otherwise installs `waiter` (when given) and returns `nil`.
    private func takeReady(installing waiter: CheckedContinuation<Result<Data?, APIClientError>, Never>? = nil)
        -> Result<Data?, APIClientError>?
    {
        let (ready, wakeProducer) = state.withLock { state -> (Result<Data?, APIClientError>?, Bool) in
            if state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                state.chunks[state.head] = Data()
                state.head += 1
                if state.head == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 64 && state.head * 2 >= state.chunks.count {
                    state.chunks.removeFirst(state.head)
                    state.head = 0
                }
                state.buffered -= chunk.count
                state.delivered += chunk.count
                var wake = false
                if state.paused && state.buffered <= lowWater {
                    state.paused = false
                    wake = true
                }
                return (.success(chunk), wake)
            }
            if let ending = state.ending {
                switch ending {
                case .finished:
                    return (.success(nil), false)
                case .failed(let error):
                    // Reported once; afterwards the sequence is over.
                    state.ending = .finished
                    return (.failure(error), false)
                }
            }
            if let waiter {
                guard state.waiter == nil else {
                    return (
                        .failure(.invalidRequest(reason: "the body stream is already being read by another task")),
                        false
                    )
                }
                state.waiter = waiter
            }
            return (nil, false)
        }
        if wakeProducer { resumeProducer() }
        switch ready {
        case .success(nil): reportEnd(nil)
        case .failure(let error): reportEnd(error)
        default: break
        }
        return ready
    }

    /// Calls `observer` once when the consumer has reached the end, failed, or gone away (at once if it already
    /// has).
    func onEnd(_ observer: @escaping @Sendable (HTTPBodyStream.Summary) -> Void) {
        let summary = state.withLock { state -> HTTPBodyStream.Summary? in
            if let summary = state.summary { return summary }
            state.endObservers.append(observer)
            return nil
        }
        if let summary { observer(summary) }
    }

    private func reportEnd(_ error: APIClientError?) {
        let (observers, summary) = state.withLock {
            state -> ([@Sendable (HTTPBodyStream.Summary) -> Void], HTTPBodyStream.Summary?) in
            guard state.summary == nil else { return ([], nil) }
            let summary = HTTPBodyStream.Summary(
                bytes: state.delivered, error: error, duration: clock.now - startedAt)
            state.summary = summary
            let observers = state.endObservers
            state.endObservers = []
            return (observers, summary)
        }
        guard let summary else { return }
        for observer in observers { observer(summary) }
    }

    private func resumeProducer() {
        let demandWaiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            let waiter = state.demandWaiter
            state.demandWaiter = nil
            return waiter
        }
        demandWaiter?.resume(returning: true)
        onDemand?()
    }

    /// The consumer is gone: drop what is buffered, end a pending read with `error`, and tell the producer once.
    func cancel(with error: APIClientError) {
        let (tellProducer, waiter, demandWaiter) = state.withLock {
            state -> (
                Bool, CheckedContinuation<Result<Data?, APIClientError>, Never>?, CheckedContinuation<Bool, Never>?
            )
            in
            let first = !state.consumerGone
            state.consumerGone = true
            state.chunks.removeAll()
            state.head = 0
            state.buffered = 0
            let running = state.ending == nil
            if running { state.ending = .failed(error) }
            let waiter = state.waiter
            state.waiter = nil
            let demandWaiter = state.demandWaiter
            state.demandWaiter = nil
            return (first && running, waiter, demandWaiter)
        }
        waiter?.resume(returning: .failure(error))
        demandWaiter?.resume(returning: false)
        if tellProducer { onCancel?() }
        reportEnd(error)
    }

    /// Bytes currently buffered and not yet read.
    var bufferedBytes: Int { state.withLock { $0.buffered } }
    /// Bytes handed to the consumer so far.
    var deliveredBytes: Int { state.withLock { $0.delivered } }
}
