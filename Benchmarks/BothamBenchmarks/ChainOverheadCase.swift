// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import Foundation

    /// Case 1: the cost of `BothamAPIClient` and its interceptors over a transport that answers at once, against
    /// calling that transport directly.
    struct ChainOverheadCase {
        let options: Options
        let report: Report

        private static let endpoint = "http://127.0.0.1:8080"

        private struct Measurement {
            var nanoseconds: [Double] = []
            var allocations: [Double] = []
            var cpuNanoseconds: [Double] = []

            mutating func append(_ sample: Sample) {
                nanoseconds.append(sample.nanoseconds)
                allocations.append(sample.allocations)
                cpuNanoseconds.append(sample.cpuNanoseconds)
            }
        }

        /// Per-call figures of one run.
        private struct Sample {
            let nanoseconds: Double
            let cpuNanoseconds: Double
            let allocations: Double

            init(calls: Int, seconds: Double, cpuSeconds: Double, allocations: UInt64) {
                nanoseconds = seconds * 1e9 / Double(calls)
                cpuNanoseconds = cpuSeconds * 1e9 / Double(calls)
                self.allocations = Double(allocations) / Double(calls)
            }
        }

        func run() async {
            let request = HTTPRequest(method: .get, baseEndpoint: Self.endpoint, path: "/small.json")
            let body = Data(#"{"id":1,"name":"botham","tags":["a","b"]}"#.utf8)
            let transport = CannedHTTPClient(
                response: HTTPResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "application/json"],
                    body: body,
                    request: request
                )
            )
            let calls = options.chainCalls
            var direct = Measurement()
            var chains = [Int: Measurement]()
            // Interleaved: every run measures the direct call and every chain length once, in turn.
            for _ in 0..<options.runs {
                direct.append(await Self.measureDirect(transport, request, calls: calls))
                for count in options.interceptorCounts {
                    let sample = await Self.measureClient(transport, request, interceptors: count, calls: calls)
                    chains[count, default: Measurement()].append(sample)
                }
            }
            report.add(ResultRow(.chain, "transport-direct", "ns/call", direct.nanoseconds))
            report.add(ResultRow(.chain, "transport-direct", "CPU ns/call", direct.cpuNanoseconds))
            report.add(ResultRow(.chain, "transport-direct", "allocs/call", direct.allocations))
            for count in options.interceptorCounts {
                guard let chain = chains[count] else { continue }
                let variant = "botham+\(count)"
                report.add(
                    ResultRow(
                        .chain, variant, "ns/call", chain.nanoseconds, against: "transport-direct", direct.nanoseconds)
                )
                let overhead = zip(chain.nanoseconds, direct.nanoseconds).map { $0 - $1 }
                report.add(ResultRow(.chain, variant, "overhead ns/call", overhead))
                report.add(
                    ResultRow(
                        .chain,
                        variant,
                        "CPU ns/call",
                        chain.cpuNanoseconds,
                        against: "transport-direct",
                        direct.cpuNanoseconds
                    )
                )
                report.add(ResultRow(.chain, variant, "allocs/call", chain.allocations))
            }
        }

        /// The transport as an existential the optimizer cannot see through, so the direct call is a real call.
        @inline(never)
        private static func opaque(_ transport: CannedHTTPClient) -> any HTTPClient { transport }

        /// Nanoseconds and heap allocations per call of `transport.send` through the `HTTPClient` existential.
        private static func measureDirect(_ transport: CannedHTTPClient, _ request: HTTPRequest, calls: Int) async
            -> Sample
        {
            let client = opaque(transport)
            var failures = 0
            for _ in 0..<min(calls, 1_000) {
                do { _ = try await client.send(request) } catch { failures += 1 }
            }
            let allocationsBefore = AllocationCount.now()
            let usage = ResourceUsage.now()
            let stopwatch = Stopwatch()
            for _ in 0..<calls {
                do { _ = try await client.send(request) } catch { failures += 1 }
            }
            let seconds = stopwatch.seconds
            let cpuSeconds = ResourceUsage.now().cpuSeconds - usage.cpuSeconds
            let allocations = AllocationCount.now().allocations - allocationsBefore.allocations
            precondition(failures == 0, "the canned transport failed")
            return Sample(calls: calls, seconds: seconds, cpuSeconds: cpuSeconds, allocations: allocations)
        }

        /// Nanoseconds and heap allocations per `BothamAPIClient.send` with `interceptors` pass-through interceptors.
        private static func measureClient(
            _ transport: CannedHTTPClient,
            _ request: HTTPRequest,
            interceptors: Int,
            calls: Int
        ) async -> Sample {
            let client = BothamAPIClient(baseEndpoint: endpoint, httpClient: transport)
            let uninstall = client.installPassThroughInterceptors(interceptors)
            defer { uninstall() }
            let cost = await measureSends(of: request, on: client, calls: calls, what: "chain")
            return Sample(
                calls: calls, seconds: cost.seconds, cpuSeconds: cost.cpuSeconds, allocations: cost.allocations)
        }
    }

#endif
