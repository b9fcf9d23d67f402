import Foundation

/// The body of one streaming ``URLSessionTransfer``: hands URLSession's chunks to the caller's ``HTTPBodyStream``
/// and holds URLSession back while the caller's buffer is full.
///
/// Each streaming call has a session of its own (see ``URLSessionHTTPClient``), so holding its serial delegate queue
/// holds nobody else. While the stream's buffer is full, the delegate callback that delivered the chunk waits (on
/// the delegate queue) until the caller has read it down to a quarter, or has gone; that queue's
/// ``URLSessionDelegateQueue`` then makes URLSession's own thread wait before it queues more, so libcurl stops
/// reading the socket and TCP flow control slows the server: memory stays at the stream's buffer plus the queue's
/// high-water mark of chunks (about 2.3 MiB at most).
///
/// The idle timeout between chunks is the transfer's (``URLSessionTimeouts``): time spent waiting for the caller
/// does not count.
///
/// `Sendable`: the mutable state is behind the ``Lock``; the semaphore is thread-safe.
final class URLSessionBodyStreamer: Sendable {
    private struct State {
        var continuation: HTTPBodyStream.Continuation?
        var headDelivered = false
    }

    private let state = Lock(State())
    private let demand = DispatchSemaphore(value: 0)
    private let timeouts: URLSessionTimeouts

    init(timeouts: URLSessionTimeouts) {
        self.timeouts = timeouts
    }

    /// Whether the head has gone to the caller (``makeStream(onCancel:)`` was called): the body comes here from now
    /// on.
    var hasDeliveredHead: Bool {
        state.withLock { $0.headDelivered }
    }

    /// A new stream for the response head; `onCancel` runs when the caller goes away before the body ended.
    func makeStream(onCancel: @escaping @Sendable () -> Void) -> HTTPBodyStream {
        let demand = self.demand
        let (stream, continuation) = HTTPBodyStream.makeStream(
            onDemand: { demand.signal() },
            onCancel: {
                demand.signal()
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

    /// A chunk arrived (on the delegate queue): passes it on, and waits while the caller's buffer is full.
    func deliver(_ data: Data) {
        guard let continuation = state.withLock({ $0.continuation }) else { return }
        timeouts.noteActivity()
        guard continuation.yield(data) == .pause else { return }
        timeouts.setWaitingForReader(true)
        let resumeAt = HTTPBodyStream.defaultBufferLimit / 4
        while !continuation.isCancelled, state.withLock({ $0.continuation != nil }) {
            // Woken by the reader's demand or by its going away; the timeout re-checks in case a signal raced.
            if demand.wait(timeout: .now() + .milliseconds(50)) == .success { break }
            if continuation.bufferedBytes <= resumeAt { break }
        }
        timeouts.setWaitingForReader(false)
    }

    /// Ends the stream: complete (`nil`) or with `error`.
    func end(_ error: APIClientError?) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        demand.signal()
        guard let continuation else { return }
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}
