import Foundation

/// The body of one streaming ``URLSessionTransfer``: hands URLSession's chunks to the caller's ``HTTPBodyStream``,
/// and tells the session's delegate queue when the caller is behind, so that URLSession is held back while
/// ``URLSessionThreadGate`` allows.
///
/// Delivery never waits: a chunk goes into the stream's buffer at once. While the caller is behind (the buffer went
/// past its limit and has not been read down to a quarter of it), the call does not count as needing URLSession's
/// thread and its queue holds URLSession back; where the thread is shared and another call needs it, the chunks
/// that keep coming stay in the buffer, up to `unreadLimit` bytes unread, past which the call ends with
/// `.networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))`. A stream allowed to hold is never failed by that limit.
///
/// The idle timeout between chunks is the transfer's (``URLSessionTimeouts``): time spent waiting for the caller
/// does not count.
///
/// `Sendable`: the mutable state is behind the ``Lock``.
final class URLSessionBodyStreamer: Sendable {
    private struct State {
        var continuation: HTTPBodyStream.Continuation?
        var headDelivered = false
        /// Whether the caller is behind: the call has given up its claim on URLSession's thread.
        var behind = false
        var ended = false
    }

    private let state = Lock(State())
    private let timeouts: URLSessionTimeouts
    private var gate: URLSessionThreadGate { .shared }
    private let unreadLimit: Int?

    /// - Parameter unreadLimit: the most bytes the caller may leave unread; `nil` for no limit.
    init(timeouts: URLSessionTimeouts, unreadLimit: Int?) {
        self.timeouts = timeouts
        self.unreadLimit = unreadLimit
    }

    /// Whether the head has gone to the caller (``makeStream(onCancel:)`` was called): the body comes here from now
    /// on.
    var hasDeliveredHead: Bool {
        state.withLock { $0.headDelivered }
    }

    /// Whether URLSession should wait before it queues more: the caller is behind and still there.
    var callerIsBehind: Bool {
        state.withLock { $0.behind && !$0.ended && !($0.continuation?.isCancelled ?? true) }
    }

    /// A new stream for the response head; `onCancel` runs when the caller goes away before the body ended.
    func makeStream(onCancel: @escaping @Sendable () -> Void) -> HTTPBodyStream {
        let (stream, continuation) = HTTPBodyStream.makeStream(
            onDemand: { [weak self] in self?.callerCaughtUp() },
            onCancel: { [weak self] in
                self?.callerCaughtUp()
                onCancel()
            }
        )
        state.withLock { state in
            state.continuation = continuation
            state.headDelivered = true
        }
        timeouts.noteActivity()
        return stream
    }

    /// A chunk arrived (on the delegate queue): passes it on. Returns the error that ends the call when the caller
    /// has left more than `unreadLimit` bytes unread.
    func deliver(_ data: Data) -> APIClientError? {
        guard let continuation = state.withLock({ $0.ended ? nil : $0.continuation }) else { return nil }
        timeouts.noteActivity()
        guard continuation.yield(data) == .pause else { return nil }
        let fellBehind = state.withLock { state in
            guard !state.behind, !state.ended else { return false }
            state.behind = true
            return true
        }
        if fellBehind {
            timeouts.setWaitingForReader(true)
            gate.release()
            // The caller may have read its buffer down between the yield and now, its demand finding nobody behind.
            if continuation.bufferedBytes <= HTTPBodyStream.defaultBufferLimit / 4 { callerCaughtUp() }
        }
        // Only while this stream may not hold URLSession back do its unread bytes grow: that is when they are bounded.
        if let unreadLimit, continuation.bufferedBytes > unreadLimit, gate.holdsAreBarred {
            return .networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))
        }
        return nil
    }

    /// The caller read its buffer down (or went away): the call needs URLSession's thread again.
    private func callerCaughtUp() {
        let caughtUp = state.withLock { state in
            guard state.behind else { return false }
            state.behind = false
            return true
        }
        guard caughtUp else { return }
        timeouts.setWaitingForReader(false)
        gate.acquire()
    }

    /// Ends the stream: complete (`nil`) or with `error`. The call's claim on URLSession's thread is whole again.
    func end(_ error: APIClientError?) {
        let (continuation, wasBehind) = state.withLock { state in
            defer {
                state.continuation = nil
                state.ended = true
                state.behind = false
            }
            return (state.continuation, state.behind)
        }
        if wasBehind { gate.acquire() }
        guard let continuation else { return }
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}
