import Foundation

/// Whether a streaming call may hold URLSession back, process-wide.
///
/// FoundationNetworking (Linux) runs every `URLSession` of the process on one libcurl thread, and it has no way to
/// pause one transfer: the only back-pressure a streaming call has is to make that thread wait before it queues the
/// next chunk, and that waits for every session in the process. So on Linux a stream whose reader is behind holds
/// the thread only while no call of any ``URLSessionHTTPClient`` needs it: every call counts as needing it from
/// before its first URLSession call to after its last one, except a stream while its reader is behind. Any change
/// that makes a call need the thread wakes the holders at once. While a hold is not allowed, a stream's unread
/// bytes stay in its buffer, up to ``TransportLimits/maxResponseBytes``.
///
/// On Apple platforms each session has its own delegate queue and network thread, so a stream holds its own
/// session back whenever its reader is behind.
///
/// `@unchecked Sendable`: `needing` is read and written only while `condition` is locked; `NSCondition` is
/// thread-safe.
final class URLSessionThreadGate: @unchecked Sendable {
    /// The one gate of the process: there is one libcurl thread.
    static let shared = URLSessionThreadGate()

    /// How long a hold sleeps before it looks again, in case a wake-up raced with it.
    static let recheckInterval: TimeInterval = 0.05

    private let condition = NSCondition()
    private var needing = 0

    /// Whether holds must leave the thread to the calls that need it: only where the thread is shared.
    static let threadIsShared: Bool = {
        #if canImport(FoundationNetworking)
            return true
        #else
            return false
        #endif
    }()

    /// A call needs URLSession's thread from now on (until ``release()``): every hold stops.
    func acquire() {
        condition.lock()
        needing += 1
        condition.broadcast()
        condition.unlock()
    }

    /// A call acquired with ``acquire()`` no longer needs the thread.
    func release() {
        condition.lock()
        needing -= 1
        condition.unlock()
    }

    /// Runs `body`, which calls URLSession, with the thread needed meanwhile: no hold keeps it waiting.
    func whileNeeded<T>(_ body: () throws -> T) rethrows -> T {
        acquire()
        defer { release() }
        return try body()
    }

    /// Whether a stream may not hold URLSession's thread now: it is shared and some call needs it.
    var holdsAreBarred: Bool {
        guard Self.threadIsShared else { return false }
        condition.lock()
        defer { condition.unlock() }
        return needing > 0
    }

    /// Waits (on URLSession's thread) while `shouldHold` is true and, where the thread is shared, no call needs it.
    /// `shouldHold` runs with the gate locked: it may take other locks, but must not call the gate.
    func hold(while shouldHold: () -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        while !Self.threadIsShared || needing == 0, shouldHold() {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.recheckInterval))
        }
    }
}
