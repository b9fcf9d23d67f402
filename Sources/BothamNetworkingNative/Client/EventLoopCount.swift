import Foundation

extension NativeHTTPClient {
    /// How many event loops (threads) a ``NativeHTTPClient`` spreads its calls over:
    /// ``NativeHTTPClient/Configuration/eventLoops``.
    ///
    /// ``one`` (the default) is one loop thread for the whole process, enough for most apps: it only moves bytes.
    /// Ask for more when many calls in flight keep that one thread busy and the machine has idle cores, and spread
    /// the calling tasks over ``NativeHTTPClient/taskExecutors``. Each loop is a thread of its own (a 64 KiB read
    /// buffer, and it sleeps in `epoll_wait` while nothing is in flight); loops are shared process-wide, so the
    /// process runs as many loop threads as the largest count any client asked for, started on first use and kept
    /// for the life of the process.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.eventLoops = .perCore
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct EventLoopCount: Sendable, Hashable, CustomStringConvertible {
        /// The number of loops, clamped to 1...``maximum``.
        public let count: Int

        /// The most loops a client can ask for (64); larger counts are clamped to it.
        public static let maximum = EventLoop.maximumSharedCount

        /// One loop, shared by every client that asks for one: the default.
        public static let one = EventLoopCount(clamping: 1)

        /// One loop per core the process may run on (`ProcessInfo.activeProcessorCount`), at most ``maximum``.
        public static var perCore: EventLoopCount {
            EventLoopCount(clamping: ProcessInfo.processInfo.activeProcessorCount)
        }

        /// `count` loops, clamped to 1...``maximum`` (zero or a negative count is one loop).
        public static func count(_ count: Int) -> EventLoopCount {
            EventLoopCount(clamping: count)
        }

        private init(clamping count: Int) {
            self.count = min(max(1, count), Self.maximum)
        }

        /// `"1 event loop"`, `"4 event loops"`.
        public var description: String { count == 1 ? "1 event loop" : "\(count) event loops" }
    }
}
