import Foundation

extension NativeHTTPClient {
    /// How many event loops (threads) a ``NativeHTTPClient`` spreads its calls over:
    /// ``NativeHTTPClient/Configuration/eventLoops``.
    ///
    /// ``automatic`` is the default. ``one`` keeps every call of the process on one thread (it only moves bytes,
    /// which is enough for most apps). Each loop is a thread of its own (a 64 KiB read buffer, and it sleeps in
    /// `epoll_wait` while nothing is in flight); loops are shared process-wide, so the process runs as many loop
    /// threads as the largest count any client asked for, started on first use and kept for the life of the process.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.eventLoops = .one
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct EventLoopCount: Sendable, Hashable, CustomStringConvertible {
        /// The number of loops, clamped to 1...``maximum``. For ``automatic``, the number of cores, the most it may
        /// run: what a client runs is its ``NativeHTTPClient/taskExecutors`` count.
        public let count: Int
        /// Whether this is ``automatic``.
        private let isAutomatic: Bool

        /// The most loops a client can ask for (64); larger counts are clamped to it.
        public static let maximum = EventLoop.maximumSharedCount

        /// One loop, shared by every client that asks for one.
        public static let one = EventLoopCount(clamping: 1)

        /// One loop per core the process may run on (`ProcessInfo.activeProcessorCount`), at most ``maximum``.
        public static var perCore: EventLoopCount {
            EventLoopCount(clamping: ProcessInfo.processInfo.activeProcessorCount)
        }

        /// The default. A client that speaks only HTTP/1.1 gets ``perCore``, as AsyncHTTPClient's event-loop group
        /// has, but at most one loop per 4 connections of ``NativeHTTPClient/Configuration/maxConnectionsPerHost``
        /// (2 loops for the default 8; raise the cap to use more cores): many calls in flight spread over the loops,
        /// and one call at a time stays on the first. A client that may speak HTTP/2
        /// (``NativeHTTPClient/Configuration/httpVersion``) gets ``one``: one connection per origin carries all its
        /// calls (RFC 9113 §9.1), while each loop would open its own.
        public static var automatic: EventLoopCount {
            EventLoopCount(clamping: ProcessInfo.processInfo.activeProcessorCount, isAutomatic: true)
        }

        /// `count` loops, clamped to 1...``maximum`` (zero or a negative count is one loop).
        public static func count(_ count: Int) -> EventLoopCount {
            EventLoopCount(clamping: count)
        }

        private init(clamping count: Int, isAutomatic: Bool = false) {
            self.count = min(max(1, count), Self.maximum)
            self.isAutomatic = isAutomatic
        }

        /// The connections each loop of ``automatic`` keeps at least: calls that all stay on one loop (a task on
        /// ``NativeHTTPClient/taskExecutor``) get that loop's share of the cap.
        static let automaticConnectionsPerLoop = 4

        /// The loops a client speaking `httpVersion` with `maxConnectionsPerHost` runs: never more than connections
        /// (a loop that may open none would only hold a thread), and for ``automatic`` one over HTTP/2 and no more
        /// than leave each loop ``automaticConnectionsPerLoop`` connections.
        func count(for httpVersion: HTTPVersionPolicy, maxConnectionsPerHost: Int) -> Int {
            let cap = max(1, maxConnectionsPerHost)
            guard isAutomatic else { return min(count, cap) }
            guard !httpVersion.offersHTTP2 else { return 1 }
            return min(count, max(1, cap / Self.automaticConnectionsPerLoop))
        }

        /// `"1 event loop"`, `"4 event loops"`, `"automatic (up to 4 event loops, one per 4 connections)"`.
        public var description: String {
            let loops = count == 1 ? "1 event loop" : "\(count) event loops"
            return isAutomatic
                ? "automatic (up to \(loops), one per \(Self.automaticConnectionsPerLoop) connections)" : loops
        }
    }
}
