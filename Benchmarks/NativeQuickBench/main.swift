// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    // Sequential GETs with NativeHTTPClient and with URLSession, in one process, for a quick comparison.
    //
    //     swift build -c release --package-path Benchmarks --product NativeQuickBench
    //     Benchmarks/.build/release/NativeQuickBench http://127.0.0.1:8080/small.json 2000 [native|urlsession] [in-flight] [h2]
    //
    // Prints requests per second (wall clock) and CPU microseconds per request (getrusage, user + system, the whole
    // process: the client's threads, not the server's). `in-flight` (default 1) runs that many sequential workers at
    // once. `h2` speaks cleartext HTTP/2 with prior knowledge. The full comparison, with medians of several runs, is `scripts/bench.sh --cases transport,slow`.
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    func cpuMicroseconds() -> Double { ResourceUsage.now().cpuSeconds * 1e6 }

    func measure(_ name: String, count: Int, inFlight: Int, _ body: @escaping @Sendable () async throws -> Void)
        async throws
    {
        let cpuStart = cpuMicroseconds()
        let stopwatch = Stopwatch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<inFlight {
                group.addTask { for _ in 0..<(count / inFlight) { try await body() } }
            }
            try await group.waitForAll()
        }
        let seconds = stopwatch.seconds
        let cpu = cpuMicroseconds() - cpuStart
        let rate = Double(count) / seconds
        print(
            "\(name): \(count) requests in \(String(format: "%.3f", seconds)) s = \(Int(rate)) req/s, "
                + "\(Int(cpu / Double(count))) µs CPU/request")
    }

    /// Runs the comparison; on a detached task, so that valgrind (which crashes while the main thread sits in
    /// `dispatch_main` under a top-level `await`) can profile it.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func run() async throws {
        let arguments = CommandLine.arguments
        let url =
            URL(string: arguments.count > 1 ? arguments[1] : "http://127.0.0.1:8080/") ?? URL(fileURLWithPath: "/")
        let count = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
        let inFlight = max(1, arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1)
        // The client's base endpoint, and the path its calls send.
        let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
        let path = url.path

        // `urlsession` in place of `native`: only BothamAPIClient + URLSessionHTTPClient, for a profile of its
        // per-chunk path (BENCHMARKS.md).
        if arguments.count > 3 && arguments[3] == "urlsession" {
            let apiClient = BothamAPIClient(
                baseEndpoint: origin, httpClient: URLSessionHTTPClient())
            _ = try await apiClient.GET(path).get()
            try await measure("BothamAPIClient + URLSessionHTTPClient", count: count, inFlight: inFlight) {
                let response = try await apiClient.GET(path).get()
                precondition(response.statusCode == 200, "unexpected status \(response.statusCode)")
            }
            return
        }

        var configuration = NativeHTTPClient.Configuration()
        configuration.maxConnectionsPerHost = max(8, inFlight)
        if arguments.count > 5 && arguments[5] == "h2" { configuration.httpVersion = .http2PriorKnowledge }
        let native = NativeHTTPClient(configuration: configuration)
        let request = HTTPRequest(method: .get, url: url)
        _ = try await native.send(request)  // warm up: connect once
        // NATIVE_QUICK_BENCH_ONLY_API=1: only the BothamAPIClient run, for a profile of it alone (BENCHMARKS.md).
        if ProcessInfo.processInfo.environment["NATIVE_QUICK_BENCH_ONLY_API"] == nil {
            try await measure("NativeHTTPClient", count: count, inFlight: inFlight) {
                let response = try await native.send(request)
                precondition(response.statusCode == 200, "unexpected status \(response.statusCode)")
            }

            try await withTaskExecutorPreference(native.taskExecutor) {
                try await measure("NativeHTTPClient on its loop's executor", count: count, inFlight: inFlight) {
                    let response = try await native.send(request)
                    precondition(response.statusCode == 200, "unexpected status \(response.statusCode)")
                }
            }
        }

        let apiClient = BothamAPIClient(
            baseEndpoint: origin, httpClient: native)
        // NATIVE_QUICK_BENCH_OFF_LOOP=1: the calls from tasks that prefer no executor, as users make them by default.
        let offLoop = ProcessInfo.processInfo.environment["NATIVE_QUICK_BENCH_OFF_LOOP"] != nil
        try await withTaskExecutorPreference(offLoop ? nil : native.taskExecutor) {
            try await measure(
                offLoop
                    ? "BothamAPIClient + NativeHTTPClient"
                    : "BothamAPIClient + NativeHTTPClient on its loop's executor",
                count: count, inFlight: inFlight
            ) {
                let response = try await apiClient.GET(path).get()
                precondition(response.statusCode == 200, "unexpected status \(response.statusCode)")
            }
        }

        if arguments.count > 3 && arguments[3] == "native" { return }

        let session = URLSession(configuration: .ephemeral)
        _ = try await session.data(for: URLRequest(url: url))
        try await measure("URLSession data(for:)", count: count, inFlight: inFlight) {
            let (_, response) = try await session.data(for: URLRequest(url: url))
            precondition((response as? HTTPURLResponse)?.statusCode == 200, "unexpected status")
        }
    }

    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                try await run()
            } else {
                print("NativeQuickBench needs task executors (macOS 15, iOS 18)")
            }
        } catch {
            print("failed: \(error)")
        }
        finished.signal()
    }
    finished.wait()

#else
    print("NativeQuickBench runs on Linux only")
#endif
