import Foundation

extension NativeHTTPClient {
    /// How many event loops (threads) a ``NativeHTTPClient`` spreads its calls over:
    /// ``NativeHTTPClient/Configuration/eventLoops``.
    ///
    /// ``automatic`` (the default) is one loop per core, as AsyncHTTPClient's event-loop group has, for a client that
    /// speaks HTTP/1.1: many calls in flight spread over every core, and one call at a time stays on the first loop.
    /// A client that may speak HTTP/2 (``NativeHTTPClient/Configuration/httpVersion``) gets one loop: one connection
    /// per origin carries all its calls (RFC 9113 §9.1), while each loop would open its own. ``one`` keeps every call
    /// of the process on one thread (it only moves bytes, which is enough for most apps). Each loop is a thread of its
    /// own (a 64 KiB read buffer, and it sleeps in `epoll_wait` while nothing is in flight); loops are shared
    /// process-wide, so the process runs as many loop threads as the largest count any client asked for, started on
    /// first use and kept for the life of the process.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.eventLoops = .one
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct EventLoopCount: Sendable, Hashable, CustomStringConvertible {
        /// The number of loops, clamped to 1...``maximum`` (for ``automatic``, one per core: its count over
        /// HTTP/1.1).
        public let count: Int
        /// Whether this is ``automatic``.
        private let followsHTTPVersion: Bool

        /// The most loops a client can ask for (64); larger counts are clamped to it.
        public static let maximum = EventLoop.maximumSharedCount

        /// One loop, shared by every client that asks for one.
        public static let one = EventLoopCount(clamping: 1)

        /// One loop per core the process may run on (`ProcessInfo.activeProcessorCount`), at most ``maximum``.
        public static var perCore: EventLoopCount {
            EventLoopCount(clamping: ProcessInfo.processInfo.activeProcessorCount)
        }

        /// The default: ``perCore`` for a client that speaks only HTTP/1.1, ``one`` for a client that may speak
        /// HTTP/2.
        public static var automatic: EventLoopCount {
            EventLoopCount(clamping: ProcessInfo.processInfo.activeProcessorCount, followsHTTPVersion: true)
        }

        /// `count` loops, clamped to 1...``maximum`` (zero or a negative count is one loop).
        public static func count(_ count: Int) -> EventLoopCount {
            EventLoopCount(clamping: count)
        }

        private init(clamping count: Int, followsHTTPVersion: Bool = false) {
            self.count = min(max(1, count), Self.maximum)
            self.followsHTTPVersion = followsHTTPVersion
        }

        /// The loops a client speaking `httpVersion` runs.
        func count(for httpVersion: HTTPVersionPolicy) -> Int {
            followsHTTPVersion && httpVersion != .http1Only ? 1 : count
        }

        /// `"1 event loop"`, `"4 event loops"`, `"automatic (4 event loops over HTTP/1.1)"`.
        public var description: String {
            let loops = count == 1 ? "1 event loop" : "\(count) event loops"
            return followsHTTPVersion ? "automatic (\(loops) over HTTP/1.1)" : loops
        }
    }
}
