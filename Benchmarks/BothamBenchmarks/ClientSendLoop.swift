// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking

    /// What a measured loop of `BothamAPIClient.send` calls cost in all.
    struct ClientSendLoopCost {
        let seconds: Double
        let cpuSeconds: Double
        let allocations: UInt64
    }

    /// Sends `request` through `client` `min(calls, 1_000)` times to warm up, then `calls` times measured (wall
    /// time, CPU time, heap allocations). Every call must succeed: a failure stops the benchmark, naming `what`.
    func measureSends(of request: HTTPRequest, on client: BothamAPIClient, calls: Int, what: String) async
        -> ClientSendLoopCost
    {
        var failures = 0
        for _ in 0..<min(calls, 1_000) {
            if case .failure = await client.send(request) { failures += 1 }
        }
        let allocationsBefore = AllocationCount.now()
        let usage = ResourceUsage.now()
        let stopwatch = Stopwatch()
        for _ in 0..<calls {
            if case .failure = await client.send(request) { failures += 1 }
        }
        let seconds = stopwatch.seconds
        let cpuSeconds = ResourceUsage.now().cpuSeconds - usage.cpuSeconds
        let allocations = AllocationCount.now().allocations - allocationsBefore.allocations
        precondition(failures == 0, "a \(what) call failed")
        return ClientSendLoopCost(seconds: seconds, cpuSeconds: cpuSeconds, allocations: allocations)
    }
#endif
