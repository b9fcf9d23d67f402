import BothamNetworking

extension EventLoop {
    /// The first shared loop (``sharedLoops(count:)`` with a count of 1): the first loop of every
    /// ``NativeHTTPClient`` (the only one of a client with ``NativeHTTPClient/EventLoopCount/one``), started on first
    /// use. It only moves bytes: parsing of bodies, decompression and decoding happen on the caller's task. `nil`
    /// only when the OS refuses an epoll/eventfd (or pipe).
    static let shared: EventLoop? = sharedLoops(count: 1)?.first

    /// The most loops the process starts: a client asking for more gets this many.
    static let maximumSharedCount = 64

    /// The process's loops, started on first use, in order, and kept for the life of the process: loop `i` is the
    /// same for every caller. A client asking for `count` loops gets the first `count` (clamped to
    /// 1...``maximumSharedCount``), so clients share threads and the process runs as many loop threads as the
    /// largest count any client asked for. Fewer when the OS refuses to start one (none: `nil`).
    static func sharedLoops(count: Int) -> [EventLoop]? {
        let count = min(max(1, count), maximumSharedCount)
        let loops = started.withLock { loops -> [EventLoop] in
            while loops.count < count {
                // The first loop keeps the name it always had; Linux shows 15 bytes of a thread's name.
                let name =
                    loops.isEmpty
                    ? "BothamNetworkingNative.EventLoop" : "BothamNetworkingNative.EventLoop.\(loops.count)"
                guard let loop = EventLoop(name: name) else { break }
                loops.append(loop)
            }
            return Array(loops.prefix(count))
        }
        return loops.isEmpty ? nil : loops
    }

    /// Every loop started so far, in order. Loops are never stopped.
    private static let started = Lock<[EventLoop]>([])
}
