// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Glibc

    /// `CLOCK_MONOTONIC` in nanoseconds: one clock that a server thread and a reader in the same process both read, so
    /// that the difference of two readings is the time between them.
    enum MonotonicTime {
        static func nanoseconds() -> Int64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        }

        /// Sleeps the calling thread until `deadline` (a reading of ``nanoseconds()``).
        static func sleep(until deadline: Int64) {
            var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        }
    }

#endif
