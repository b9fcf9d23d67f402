// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation

    // The benchmarks' own lock: the library's `Lock` is `package` API, which a program outside its package cannot use.
    // Only the benchmark harness takes it (results, the loopback server's log, the delegate contender's table of
    // calls), never the library code being measured.
    //
    // `@unchecked Sendable`: the value is only read or written inside `withLock`, which holds `mutex` throughout.
    /// A value guarded by a mutex.
    final class Lock<Value>: @unchecked Sendable {
        private let mutex = NSLock()
        private var value: Value

        init(_ initialValue: Value) {
            value = initialValue
        }

        /// Runs `body` with exclusive access to the guarded value.
        @discardableResult
        func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
            mutex.lock()
            defer { mutex.unlock() }
            return try body(&value)
        }
    }
#endif
