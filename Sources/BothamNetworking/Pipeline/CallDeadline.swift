/// Whether a call's ``CallSettings/callTimeout`` ran out: set by the call's timer before it cancels the call, read
/// when the cancelled call ends, so it ends with ``APIClientError/timeout`` rather than
/// ``APIClientError/cancelled``.
final class CallDeadline: Sendable {
    private let expired = Lock(false)

    /// Whether the timer fired.
    var hasExpired: Bool { expired.withLock { $0 } }

    /// The timer fired: the call is about to be cancelled.
    func expire() {
        expired.withLock { $0 = true }
    }
}
