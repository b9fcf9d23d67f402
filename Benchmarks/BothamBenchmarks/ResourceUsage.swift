// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import CMallocCounter
    import Glibc

    /// This process's CPU time and peak resident set, from `getrusage(RUSAGE_SELF)` (or its ended children's, with
    /// `RUSAGE_CHILDREN`).
    struct ResourceUsage: Sendable {
        /// User plus system CPU time, in seconds, of every thread of this process (or of its ended children).
        let cpuSeconds: Double
        /// The peak resident set size so far, in KiB (`ru_maxrss`).
        let maxRSSKiB: Int

        /// `RUSAGE_SELF`: this process; `RUSAGE_CHILDREN`: its children that have ended and been waited for.
        static func now(of who: __rusage_who = RUSAGE_SELF) -> ResourceUsage {
            var usage = rusage()
            getrusage(__rusage_who_t(who.rawValue), &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return ResourceUsage(
                cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), maxRSSKiB: usage.ru_maxrss)
        }
    }

    /// Heap operation counts from the malloc-counting hook in `CMallocCounter`.
    struct AllocationCount: Sendable {
        let allocations: UInt64
        let frees: UInt64

        static func now() -> AllocationCount {
            let counts = bench_malloc_counts_now()
            return AllocationCount(allocations: counts.allocations + counts.reallocations, frees: counts.frees)
        }

        /// Whether Swift allocations really reach the hook: allocates a class instance and looks for the count to move.
        static var hookIsActive: Bool {
            let before = now().allocations
            let probe = makeProbe()
            return withExtendedLifetime(probe) { now().allocations > before }
        }

        private final class Probe {}

        /// Not inlined, so the object escapes and really lives on the heap.
        @inline(never)
        private static func makeProbe() -> AnyObject { Probe() }
    }

#endif
