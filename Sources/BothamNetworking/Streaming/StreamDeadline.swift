import Foundation

/// The whole-call deadline of a streaming call: before the head it cancels the call, after it ends the stream with
/// ``APIClientError/timeout``.
///
/// `Sendable`: its mutable state is behind the ``Lock``. The timer task keeps this object until it fires; it holds
/// the stream's shared state, not the ``HTTPBodyStream`` itself, so releasing the stream still ends the request,
/// and ending a stream that has already ended does nothing.
final class StreamDeadline: Sendable {
    private struct State {
        var expired = false
        var stream: BodyStreamState?
        var timer: Task<Void, Never>?
    }

    private let duration: Duration
    private let clock: any HTTPClock
    private let state = Lock(State())

    /// A deadline `duration` from when it starts, measured on `clock` (the call's).
    init(after duration: Duration, on clock: any HTTPClock) {
        self.duration = duration
        self.clock = clock
    }

    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Starts the timer; `cancelCall` runs when it fires before a stream is attached.
    func start(cancelCall: @escaping @Sendable () -> Void) {
        let (duration, clock) = (duration, clock)
        let timer = Task {
            do {
                try await clock.sleep(for: duration)
            } catch {
                return  // cancelled: the call or its stream ended first
            }
            self.expire(cancelCall: cancelCall)
        }
        state.withLock { $0.timer = timer }
    }

    /// Stops the timer: the call ended before the deadline (nothing keeps running after it).
    func cancel() {
        state.withLock { state in
            state.timer?.cancel()
            state.stream = nil
        }
    }

    /// From now on the deadline ends `stream`; the timer stops when the stream ends.
    func attach(_ stream: HTTPBodyStream) {
        stream.onEnd { [self] _ in cancel() }
        let expired = state.withLock { state -> Bool in
            if !state.expired { state.stream = stream.state }
            return state.expired
        }
        if expired { stream.state.cancel(with: .timeout) }
    }

    private func expire(cancelCall: @Sendable () -> Void) {
        let stream = state.withLock { state -> BodyStreamState? in
            state.expired = true
            let stream = state.stream
            state.stream = nil
            return stream
        }
        if let stream {
            stream.cancel(with: .timeout)
        } else {
            cancelCall()
        }
    }
}
