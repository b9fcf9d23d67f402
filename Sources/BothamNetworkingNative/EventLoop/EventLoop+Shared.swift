extension EventLoop {
    /// The one event loop shared by every ``NativeHTTPClient`` in the process, started on first use: one thread is
    /// plenty for a client (it only moves bytes; parsing of bodies, decompression and decoding happen on the caller's
    /// task). `nil` only when the OS refuses an epoll/eventfd (or pipe).
    static let shared: EventLoop? = EventLoop(name: "BothamNetworkingNative.EventLoop")
}
