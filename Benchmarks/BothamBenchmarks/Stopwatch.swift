// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    /// Elapsed wall time in seconds.
    struct Stopwatch {
        private let start = ContinuousClock.now

        var seconds: Double {
            let (whole, attoseconds) = (ContinuousClock.now - start).components
            return Double(whole) + Double(attoseconds) / 1e18
        }
    }

#endif
