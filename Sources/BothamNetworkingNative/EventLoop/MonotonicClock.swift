#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds, for deadlines on the event loop.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// `duration` in nanoseconds, clamped to `0...UInt64.max / 4` so that adding it to ``now()`` never overflows.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let cap = UInt64.max / 4
        let (wholeNanos, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow || wholeNanos >= cap { return cap }
        return min(cap, wholeNanos + UInt64(attoseconds / 1_000_000_000))
    }
}
