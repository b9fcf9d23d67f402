import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate queue of a ``URLSessionHTTPClient``'s session: serial, and with back-pressure on URLSession.
///
/// FoundationNetworking hands every received chunk to the delegate as an operation on this queue, captured in the
/// operation, with no back-pressure: when the delegate queue falls behind the socket (a loaded machine, a fast
/// loopback server), the chunks pile up in memory — tens of MiB during a 1 GiB download. This queue counts the
/// operations URLSession has queued and not yet run; above ``highWater`` the URLSession thread that queues one more
/// waits until the queue drains (up to ``stallLimit``), which stops libcurl reading the socket and lets TCP flow
/// control slow the server down. Memory held in queued chunks stays below about `highWater` chunks (libcurl hands
/// over at most 16 KiB at a time).
///
/// The queue of a streaming call's own session can also hold URLSession while the stream's reader is behind
/// (``holdWhile(_:)``), for as long as ``URLSessionThreadGate`` allows: never while another call needs URLSession's
/// thread.
///
/// A wait never deadlocks: URLSession's thread may be needed by the very operation the queue is running (cancelling
/// or resuming a task synchronises with it), so the transport runs such calls with the gate open
/// (``withGateOpen(_:)``), which also stops every stream's hold; no other wait lasts longer than ``stallLimit``.
///
/// `@unchecked Sendable`: `OperationQueue` is thread-safe, the two stored counters are read and written only
/// while `condition` is locked, and the hold's condition is behind a ``Lock``.
final class URLSessionDelegateQueue: OperationQueue, @unchecked Sendable {
    /// Queued operations at which URLSession waits…
    static let highWater = 128
    /// …until no more than this many are left.
    static let lowWater = 32
    /// The longest one wait lasts.
    static let stallLimit: TimeInterval = 0.02

    private let condition = NSCondition()
    private var queued = 0
    private var openers = 0
    /// Whether this is a streaming call's queue, which may hold URLSession back (``holdWhile(_:)``).
    private let streaming: Bool
    /// While this is true, URLSession waits before it queues more (a streaming call whose reader is behind).
    private let holdCondition = Lock<(@Sendable () -> Bool)?>(nil)

    /// - Parameter streaming: whether this is the queue of a streaming call's own session, which may hold
    ///   URLSession back; a shared queue never does beyond ``stallLimit``.
    init(streaming: Bool = false) {
        self.streaming = streaming
        super.init()
        maxConcurrentOperationCount = 1
        name = "BothamNetworking.URLSessionHTTPClient.delegate"
    }

    /// Makes URLSession wait before it queues more while `condition` is true and ``URLSessionThreadGate`` allows:
    /// for the session of one streaming call, whose reader is behind.
    func holdWhile(_ condition: @escaping @Sendable () -> Bool) {
        holdCondition.withLock { $0 = condition }
    }

    /// URLSession's way of queueing delegate callbacks: counted, and held while too many are queued.
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        admit()
        super.addOperation { [self] in
            block()
            completed()
        }
    }

    /// Queues one of the transport's own operations (a cancellation): never held, and run with the gate open.
    func enqueue(_ block: @escaping @Sendable () -> Void) {
        super.addOperation { [self] in
            withGateOpen(block)
        }
    }

    /// Runs `body` (on this queue) with URLSession never held: for calls that synchronise with URLSession's thread.
    func withGateOpen<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        openers += 1
        condition.broadcast()
        condition.unlock()
        defer {
            condition.lock()
            openers -= 1
            condition.unlock()
        }
        return try URLSessionThreadGate.shared.whileNeeded(body)
    }

    private var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return openers > 0
    }

    private func admit() {
        let isOwnThread = OperationQueue.current === self
        if streaming, !isOwnThread, let holds = holdCondition.withLock({ $0 }), holds() {
            URLSessionThreadGate.shared.hold { !isOpen && holds() }
        }
        condition.lock()
        defer { condition.unlock() }
        if !isOwnThread, queued >= Self.highWater {
            let deadline = Date(timeIntervalSinceNow: Self.stallLimit)
            while queued > Self.lowWater, openers == 0 {
                if !condition.wait(until: deadline) { break }
            }
        }
        queued += 1
    }

    private func completed() {
        condition.lock()
        defer { condition.unlock() }
        queued -= 1
        if queued == Self.lowWater { condition.broadcast() }
    }
}
