// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
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

        /// One way of sending: a client, the executors its calling tasks prefer (none: the cooperative pool), and
        /// the path it GETs.
        struct Variant: Sendable {
            let name: String
            let client: BothamAPIClient
            let executors: [any TaskExecutor]
            let path: String
        }

        /// Measures every variant `runs` times, the order rotated per run (drift of the machine hits every variant
        /// alike), and reports requests per second and CPU µs per request of each, the first being the baseline the
        /// others are compared with; rows are named "variant" + `label`. A variant whose requests failed gets a note.
        static func compare(
            _ variants: [Variant], runs: Int, requests: Int, concurrency: Int, label: String, benchCase: BenchCase,
            report: Report
        ) async {
            var results = [String: (rates: [Double], cpu: [Double], failures: Int)]()
            for run in 0..<runs {
                for offset in 0..<variants.count {
                    let variant = variants[(offset + run) % variants.count]
                    let cost = await measure(
                        variant.client, executors: variant.executors, path: variant.path, requests: requests,
                        concurrency: concurrency)
                    results[variant.name, default: ([], [], 0)].rates.append(cost.requestsPerSecond)
                    results[variant.name, default: ([], [], 0)].cpu.append(cost.cpuMicrosecondsPerRequest)
                    results[variant.name, default: ([], [], 0)].failures += cost.failures
                }
            }
            guard let baseline = variants.first, let base = results[baseline.name] else { return }
            let baseName = "\(baseline.name)\(label)"
            report.add(ResultRow(benchCase, baseName, "req/s", base.rates))
            report.add(ResultRow(benchCase, baseName, "CPU µs/req", base.cpu))
            for variant in variants.dropFirst() {
                guard let ours = results[variant.name] else { continue }
                let name = "\(variant.name)\(label)"
                report.add(ResultRow(benchCase, name, "req/s", ours.rates, against: baseName, base.rates))
                report.add(ResultRow(benchCase, name, "CPU µs/req", ours.cpu, against: baseName, base.cpu))
            }
            for variant in variants {
                let failures = results[variant.name]?.failures ?? 0
                if failures > 0 {
                    report.fail("\(benchCase.rawValue)\(label): \(failures) \(variant.name) requests failed")
                }
            }
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
