// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking

    /// Many GETs of one path through a client, a fixed number in flight: what the loops and http2 cases measure.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    enum ConcurrentGETs {
        /// What `requests` GETs cost, `concurrency` at a time.
        struct Cost {
            let requestsPerSecond: Double
            let cpuMicrosecondsPerRequest: Double
            let failures: Int
        }

        /// Sends `2 × concurrency` GETs of `path` to warm up, then `requests` measured, `concurrency` tasks each
        /// sending its share one after another; task `i` prefers `executors[i % count]` (none: the cooperative pool).
        static func measure(
            _ client: BothamAPIClient, executors: [any TaskExecutor], path: String, requests: Int, concurrency: Int
        ) async -> Cost {
            _ = await send(client, executors: executors, path: path, requests: concurrency * 2, concurrency)
            let usage = ResourceUsage.now()
            let stopwatch = Stopwatch()
            let failures = await send(client, executors: executors, path: path, requests: requests, concurrency)
            let seconds = stopwatch.seconds
            let cpu = ResourceUsage.now().cpuSeconds - usage.cpuSeconds
            return Cost(
                requestsPerSecond: Double(requests) / seconds,
                cpuMicrosecondsPerRequest: cpu * 1e6 / Double(requests), failures: failures)
        }

        /// How many of the GETs failed.
        private static func send(
            _ client: BothamAPIClient, executors: [any TaskExecutor], path: String, requests: Int, _ concurrency: Int
        ) async -> Int {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<concurrency {
                    let executor = executors.isEmpty ? nil : executors[index % executors.count]
                    group.addTask(executorPreference: executor) {
                        var failures = 0
                        for _ in 0..<(requests / concurrency) {
                            if case .failure = await client.GET(path) { failures += 1 }
                        }
                        return failures
                    }
                }
                return await group.reduce(0, +)
            }
        }
    }
#endif
