// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import BothamNetworkingTesting
    import Foundation

    /// The cache case: (1) a fresh hit from `CacheInterceptor` (in-memory store) through `BothamAPIClient`, against
    /// the same chain without the cache over a transport that answers at once — CPU per call and calls/s; (2) a
    /// `304` revalidation over `NativeHTTPClient` against a full `200` of the same resource from `MockWebServer`
    /// (req/s, sequential), for a small and a 64 KiB body.
    struct CacheCase {
        let options: Options
        let report: Report

        private static let endpoint = "http://127.0.0.1:8080"

        func run() async {
            await freshHit()
            for size in [563, 64 << 10] { await revalidation(bodySize: size) }
        }

        /// (1) Interleaved runs of the chain without a cache and with a cache that answers every call fresh.
        private func freshHit() async {
            let request = HTTPRequest(method: .get, baseEndpoint: Self.endpoint, path: "/small.json")
            let body = Data(#"{"id":1,"name":"botham","tags":["a","b"]}"#.utf8)
            let transport = CannedHTTPClient(
                response: HTTPResponse(
                    statusCode: 200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=86400"],
                    body: body, request: request))
            let calls = options.chainCalls
            var plain: [(cpu: Double, wall: Double)] = []
            var cached: [(cpu: Double, wall: Double)] = []
            for _ in 0..<options.runs {
                let withoutCache = BothamAPIClient(baseEndpoint: Self.endpoint, httpClient: transport)
                plain.append(await Self.measure(withoutCache, request, calls: calls))
                let withCache = BothamAPIClient(baseEndpoint: Self.endpoint, httpClient: transport)
                withCache.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
                _ = await withCache.send(request)  // stores the response: every measured call is a fresh hit
                cached.append(await Self.measure(withCache, request, calls: calls))
            }
            report.add(ResultRow(.cache, "chain-no-cache", "CPU ns/call", plain.map(\.cpu)))
            report.add(ResultRow(.cache, "chain-no-cache", "calls/s", plain.map { 1e9 / $0.wall }))
            report.add(
                ResultRow(
                    .cache, "fresh-hit", "CPU ns/call", cached.map(\.cpu), against: "chain-no-cache",
                    plain.map(\.cpu)))
            report.add(
                ResultRow(.cache, "fresh-hit", "overhead CPU ns/call", zip(cached, plain).map { $0.cpu - $1.cpu }))
            report.add(ResultRow(.cache, "fresh-hit", "calls/s", cached.map { 1e9 / $0.wall }))
        }

        /// CPU and wall nanoseconds per call of `calls` sequential sends (after a warm-up).
        private static func measure(_ client: BothamAPIClient, _ request: HTTPRequest, calls: Int) async
            -> (cpu: Double, wall: Double)
        {
            let cost = await measureSends(of: request, on: client, calls: calls, what: "cache case")
            return (cost.cpuSeconds * 1e9 / Double(calls), cost.seconds * 1e9 / Double(calls))
        }

        /// (2) Sequential requests to a `MockWebServer` resource with `no-cache` and an `ETag`: with the cache each
        /// one is a conditional request answered `304`; without it each is a full `200`.
        private func revalidation(bodySize: Int) async {
            let server: MockWebServer
            do {
                server = try MockWebServer()
            } catch {
                report.note("cache: MockWebServer did not start (\(error)), revalidation skipped")
                return
            }
            defer { server.shutdown() }
            let body = Data(repeating: UInt8(ascii: "x"), count: bodySize)
            server.setDispatcher { request in
                if request.headers["If-None-Match"] == #""v1""# {
                    return MockResponse().withStatus(304).withHeader("ETag", #""v1""#)
                }
                return MockResponse().withHeader("Cache-Control", "no-cache").withHeader("ETag", #""v1""#)
                    .withHeader("Content-Type", "application/json").withBody(body)
            }
            let requests = max(200, options.requests)
            var full: [Double] = []
            var revalidated: [Double] = []
            for _ in 0..<options.runs {
                let plain = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
                full.append(await Self.requestsPerSecond(plain, requests: requests))
                let cached = BothamAPIClient(
                    baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
                cached.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
                revalidated.append(await Self.requestsPerSecond(cached, requests: requests))
            }
            let label = bodySize >= 1024 ? "\(bodySize >> 10)KiB" : "\(bodySize)B"
            report.add(ResultRow(.cache, "native-200-\(label)", "req/s", full))
            report.add(
                ResultRow(.cache, "native-304-\(label)", "req/s", revalidated, against: "native-200-\(label)", full))
        }

        /// Requests per second of `requests` sequential `GET /resource` (after a warm-up of 50).
        private static func requestsPerSecond(_ client: BothamAPIClient, requests: Int) async -> Double {
            var failures = 0
            for _ in 0..<50 {
                if case .failure = await client.GET("/resource") { failures += 1 }
            }
            let stopwatch = Stopwatch()
            for _ in 0..<requests {
                if case .failure = await client.GET("/resource") { failures += 1 }
            }
            let seconds = stopwatch.seconds
            precondition(failures == 0, "a revalidation call failed")
            return Double(requests) / seconds
        }
    }

#endif
