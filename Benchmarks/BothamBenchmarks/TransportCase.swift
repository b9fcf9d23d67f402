// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Case 2: requests per second and client CPU per request of `BothamAPIClient` + `URLSessionHTTPClient` and
    /// `BothamAPIClient` + `NativeHTTPClient` against raw `URLSession.data(for:)`, same server, same run, interleaved.
    /// Uses task executors (the native client's event loop), new in macOS 15 / iOS 18.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct TransportCase {
        let options: Options
        let report: Report
        let url: URL

        /// One way of sending the request; returns whether the response was a 200.
        private struct Variant: Sendable {
            let name: String
            /// The executor the sending tasks prefer (`nil`: the cooperative pool).
            var executor: (any TaskExecutor)? = nil
            let send: @Sendable () async -> Bool
        }

        private struct Measurement {
            var requestsPerSecond: [Double] = []
            var cpuMicroseconds: [Double] = []
            var failures = 0
        }

        /// Every client of the like-for-like variants may open this many connections to the server: as many as the
        /// most calls in flight (at least 8), so no client queues behind its cap.
        var connectionCap: Int { max(options.concurrencies.max() ?? 8, 8) }

        func run() async {
            let cap = connectionCap
            let session = Self.rawSession(maxConnections: cap)
            let defaultSession = Self.rawSession(maxConnections: nil)
            let url = url
            let raw = Variant(name: "raw-urlsession") { await Self.isOK(url, on: session) }
            let rawDefaults = Variant(name: "raw-urlsession, its default cap") {
                await Self.isOK(url, on: defaultSession)
            }
            let delegateSession = DelegateURLSession(maxConnections: cap)
            let rawDelegate = Variant(name: "raw-urlsession with a session delegate") {
                await delegateSession.status(of: url) == 200
            }
            let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
            let sessionConfiguration = URLSessionHTTPClient.defaultSessionConfiguration()
            sessionConfiguration.httpMaximumConnectionsPerHost = cap
            let client = BothamAPIClient(
                baseEndpoint: origin, httpClient: URLSessionHTTPClient(sessionConfiguration: sessionConfiguration))
            let path = url.path
            let botham = Variant(name: "botham+urlsession") {
                if case .success = await client.GET(path) { return true }
                return false
            }
            var nativeConfiguration = NativeHTTPClient.Configuration()
            nativeConfiguration.maxConnectionsPerHost = cap
            let nativeTransport = NativeHTTPClient(configuration: nativeConfiguration)
            let nativeClient = BothamAPIClient(baseEndpoint: origin, httpClient: nativeTransport)
            let native = Variant(name: "botham+native") {
                if case .success = await nativeClient.GET(path) { return true }
                return false
            }
            // A client on one event loop (the whole cap on it; by default a client has one loop per core, each with a
            // share) with the calling tasks on that loop: no thread switch per call.
            var oneLoopConfiguration = nativeConfiguration
            oneLoopConfiguration.eventLoops = .one
            let oneLoopTransport = NativeHTTPClient(configuration: oneLoopConfiguration)
            let oneLoopClient = BothamAPIClient(baseEndpoint: origin, httpClient: oneLoopTransport)
            let nativeOnLoop = Variant(name: "botham+native on its loop", executor: oneLoopTransport.taskExecutor) {
                if case .success = await oneLoopClient.GET(path) { return true }
                return false
            }
            // Each with its defaults: native's cap of 8 against raw URLSession's own (reported against the same
            // baseline, so the ratio between the two default rows is theirs).
            let nativeDefaultTransport = NativeHTTPClient()
            let nativeDefaultClient = BothamAPIClient(baseEndpoint: origin, httpClient: nativeDefaultTransport)
            let nativeDefaults = Variant(name: "botham+native, its default cap") {
                if case .success = await nativeDefaultClient.GET(path) { return true }
                return false
            }
            print(
                "transport: like for like, every client at most \(cap) connections per host; the \"default cap\" rows: "
                    + "raw URLSession \(defaultSession.configuration.httpMaximumConnectionsPerHost), native "
                    + "\(NativeHTTPClient.Configuration().maxConnectionsPerHost)")
            for concurrency in options.concurrencies {
                var results = [String: Measurement]()
                let total = requestCount(concurrency)
                for run in 0..<options.runs {
                    // Rotated order: drift of the machine hits every variant alike.
                    let variants = [raw, rawDelegate, botham, native, nativeOnLoop, rawDefaults, nativeDefaults]
                    let order = (0..<variants.count).map { variants[($0 + run) % variants.count] }
                    for variant in order {
                        let (rate, cpu, failures) = await measure(variant, requests: total, concurrency: concurrency)
                        results[variant.name, default: Measurement()].requestsPerSecond.append(rate)
                        results[variant.name, default: Measurement()].cpuMicroseconds.append(cpu)
                        results[variant.name, default: Measurement()].failures += failures
                    }
                }
                let label = concurrency == 1 ? "sequential" : "\(concurrency) in flight"
                guard let base = results[raw.name] else { continue }
                report.add(ResultRow(.transport, "\(raw.name) \(label)", "req/s", base.requestsPerSecond))
                report.add(ResultRow(.transport, "\(raw.name) \(label)", "CPU µs/req", base.cpuMicroseconds))
                for variant in [rawDelegate, botham, native, nativeOnLoop, rawDefaults, nativeDefaults] {
                    guard let ours = results[variant.name] else { continue }
                    report.add(
                        ResultRow(
                            .transport,
                            "\(variant.name) \(label)",
                            "req/s",
                            ours.requestsPerSecond,
                            against: "\(raw.name) \(label)",
                            base.requestsPerSecond
                        )
                    )
                    report.add(
                        ResultRow(
                            .transport,
                            "\(variant.name) \(label)",
                            "CPU µs/req",
                            ours.cpuMicroseconds,
                            against: "\(raw.name) \(label)",
                            base.cpuMicroseconds
                        )
                    )
                    if base.failures + ours.failures > 0 {
                        report.fail(
                            "transport \(label): \(base.failures) raw and \(ours.failures) \(variant.name) requests failed"
                        )
                    }
                }
                addDelegateRatios(of: results[botham.name], to: results[rawDelegate.name], label: label)
            }
            await compareLargeBodies(session: session, delegateSession: delegateSession, client: client)
            session.finishTasksAndInvalidate()
            defaultSession.finishTasksAndInvalidate()
        }

        /// `botham+urlsession` against raw URLSession through a session delegate, the path every Linux transport that
        /// decides redirects itself takes (#19 target 2 is set against it), run by run as the other ratios.
        private func addDelegateRatios(of ours: Measurement?, to delegate: Measurement?, label: String) {
            guard let ours, let delegate else { return }
            let baseline = "raw-urlsession with a session delegate \(label)"
            let name = "botham+urlsession \(label), against the delegate"
            report.add(
                ResultRow(
                    .transport, name, "req/s", ours.requestsPerSecond, against: baseline, delegate.requestsPerSecond)
            )
            report.add(
                ResultRow(
                    .transport, name, "CPU µs/req", ours.cpuMicroseconds, against: baseline, delegate.cpuMicroseconds)
            )
        }

        /// How many 1 MiB bodies are in flight at once in ``compareLargeBodies(session:delegateSession:client:)``.
        static let largeBodyConcurrency = 16

        /// 1 MiB bodies (`--medium-url`) at 16 in flight: raw `data(for:)`, raw through a session delegate and
        /// `BothamAPIClient` + `URLSessionHTTPClient`, the same caps as above; ratios against raw `data(for:)`.
        private func compareLargeBodies(
            session: URLSession, delegateSession: DelegateURLSession, client: BothamAPIClient
        ) async {
            guard let text = options.mediumURL, let medium = URL(string: text) else { return }
            let raw = Variant(name: "raw-urlsession") { await Self.isOK(medium, on: session) }
            let rawDelegate = Variant(name: "raw-urlsession with a session delegate") {
                await delegateSession.status(of: medium) == 200
            }
            let path = medium.path
            let botham = Variant(name: "botham+urlsession") {
                if case .success(let response) = await client.GET(path) { return response.body.count == 1 << 20 }
                return false
            }
            let concurrency = Self.largeBodyConcurrency
            let requests = max(concurrency * 3, options.requests / 10 / concurrency * concurrency)
            let contenders = [raw, rawDelegate, botham].map { variant in
                Contenders.Contender(name: variant.name) {
                    let (rate, cpu, failed) = await measure(variant, requests: requests, concurrency: concurrency)
                    return Contenders.Sample(
                        requestsPerSecond: rate, cpuMicroseconds: cpu,
                        failure: failed > 0 ? "\(failed) of \(requests) requests failed" : nil)
                }
            }
            await Contenders.compare(
                contenders, runs: options.runs, label: " 1 MiB, \(concurrency) in flight", benchCase: .transport,
                report: report)
        }

        /// An ephemeral session with at most `maxConnections` connections per host (`nil`: URLSession's default).
        private static func rawSession(maxConnections: Int?) -> URLSession {
            URLSession(configuration: .ephemeral(maxConnections: maxConnections))
        }

        /// Whether `GET url` on `session` answered 200.
        private static func isOK(_ url: URL, on session: URLSession) async -> Bool {
            do {
                let (_, response) = try await session.data(for: URLRequest(url: url))
                return (response as? HTTPURLResponse)?.statusCode == 200
            } catch {
                return false
            }
        }

        private func requestCount(_ concurrency: Int) -> Int {
            let total = concurrency == 1 ? options.requests : options.requests * 2
            return max(concurrency, total / concurrency * concurrency)
        }

        /// Requests per second and client CPU microseconds per request for `requests` requests, `concurrency` at a time.
        private func measure(_ variant: Variant, requests: Int, concurrency: Int) async -> (Double, Double, Int) {
            _ = await send(variant, requests: concurrency * 2, concurrency: concurrency)  // warm the connections
            let usage = ResourceUsage.now()
            let stopwatch = Stopwatch()
            let failures = await send(variant, requests: requests, concurrency: concurrency)
            let seconds = stopwatch.seconds
            let cpu = ResourceUsage.now().cpuSeconds - usage.cpuSeconds
            return (Double(requests) / seconds, cpu * 1e6 / Double(requests), failures)
        }

        private func send(_ variant: Variant, requests: Int, concurrency: Int) async -> Int {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<concurrency {
                    group.addTask(executorPreference: variant.executor) {
                        var failures = 0
                        for _ in 0..<(requests / concurrency) {
                            if await !variant.send() { failures += 1 }
                        }
                        return failures
                    }
                }
                return await group.reduce(0, +)
            }
        }
    }

#endif
