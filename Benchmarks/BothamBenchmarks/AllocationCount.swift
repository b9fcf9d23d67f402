// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import CMallocCounter

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
