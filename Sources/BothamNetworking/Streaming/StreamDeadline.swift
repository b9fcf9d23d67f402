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
    }

    private let duration: Duration
    private let state = Lock(State())

    init(after duration: Duration) {
        self.duration = duration
    }

    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Starts the timer; `cancelCall` runs when it fires before a stream is attached.
    func start(cancelCall: @escaping @Sendable () -> Void) {
        let duration = duration
        Task {
            try? await Task.sleep(for: duration)
            self.expire(cancelCall: cancelCall)
        }
    }

    /// From now on the deadline ends `stream`.
    func attach(_ stream: HTTPBodyStream) {
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
