/// What a registered file descriptor waits for.
struct PollInterest: Equatable {
    /// Wake when the descriptor is readable (or closed by the peer).
    var readable: Bool
    /// Wake when the descriptor is writable (or a non-blocking connect finished).
    var writable: Bool
}

/// One readiness event.
struct PollEvent {
    /// The descriptor.
    var fd: Int32
    /// Readable, end of stream or error: the owner should try to read.
    var readable: Bool
    /// Writable or error: the owner should try to write.
    var writable: Bool
}

/// Readiness notification for one event loop: epoll on Linux, `poll(2)` elsewhere.
///
/// Everything except ``wake()`` is called on the loop thread only; ``wake()`` may be called from any thread.
protocol Poller: AnyObject, Sendable {
    /// Starts watching `fd`.
    func register(_ fd: Int32, interest: PollInterest) -> Bool
    /// Changes what `fd` is watched for.
    func modify(_ fd: Int32, interest: PollInterest)
    /// Stops watching `fd`; call before closing it.
    func unregister(_ fd: Int32)
    /// Waits up to `timeoutMillis` (-1: forever) and returns the events; wake-ups are consumed and not returned.
    func wait(timeoutMillis: Int32) -> [PollEvent]
    /// Interrupts a ``wait(timeoutMillis:)`` in progress (or the next one). Thread-safe.
    func wake()
}

/// Makes the platform's poller.
enum PollerFactory {
    /// epoll with an eventfd on Linux; `poll(2)` with a pipe elsewhere (see ``PortablePoller``).
    static func make() -> (any Poller)? {
        #if os(Linux)
            return EpollPoller()
        #else
            return PortablePoller()
        #endif
    }
}
