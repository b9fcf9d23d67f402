// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import BothamNetworkingTesting
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The work a child process does (`BothamBenchmarks child MODE ARGS…`); each prints one ``ChildResult`` line.
    enum ChildModes {
        static func run(_ arguments: [String]) async -> ChildResult {
            guard let mode = arguments.first else { return failed("no child mode") }
            let rest = Array(arguments.dropFirst())
            switch (mode, rest.count) {
            case ("baseline", 0): return await measured { (true, "idle process") }
            case ("baseline", 1): return await baseline(url: rest[0])
            case ("download", 1): return await rawDownload(url: rest[0])
            case ("upload", 2): return await rawUpload(url: rest[0], file: rest[1])
            case ("library-download", 1): return await libraryDownload(url: rest[0])
            case ("library-upload", 2): return await libraryUpload(url: rest[0], file: rest[1])
            case ("stub-calls", 1): return await stubCalls(Int(rest[0]) ?? 1)
            case ("tasks-only", 1): return await tasksOnly(Int(rest[0]) ?? 1)
            case ("slow", 3): return await slow(url: rest[0], variant: rest[1], calls: Int(rest[2]) ?? 8)
            default: return failed("unknown child mode \(arguments)")
            }
        }

        // MARK: - Helpers

        static func failed(_ detail: String) -> ChildResult {
            ChildResult(
                ok: false,
                maxRSSKiB: ResourceUsage.now().maxRSSKiB,
                startRSSKiB: 0,
                cpuSeconds: .nan,
                wallSeconds: .nan,
                detail: detail
            )
        }

        /// Runs `work` and measures its CPU and wall time; the peak RSS is the whole process's.
        static func measured(_ work: () async -> (Bool, String)) async -> ChildResult {
            let resetPeak = MemoryStatus.resetPeak()
            let startRSS = MemoryStatus.kibibytes("VmRSS") ?? 0
            let before = ResourceUsage.now()
            let stopwatch = Stopwatch()
            let (ok, detail) = await work()
            let wall = stopwatch.seconds
            let after = ResourceUsage.now()
            let peak = resetPeak ? (MemoryStatus.kibibytes("VmHWM") ?? after.maxRSSKiB) : after.maxRSSKiB
            return ChildResult(
                ok: ok,
                maxRSSKiB: peak,
                startRSSKiB: startRSS,
                cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                wallSeconds: wall,
                detail: detail
            )
        }

        static func session(maxConnections: Int = 6) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = maxConnections
            configuration.timeoutIntervalForRequest = 60
            return URLSession(configuration: configuration)
        }

        // MARK: - Memory: baselines

        /// A process that made one small request: the RSS every transfer child starts from.
        static func baseline(url: String) async -> ChildResult {
            guard let url = URL(string: url) else { return failed("bad URL") }
            let session = session()
            return await measured {
                do {
                    let (data, _) = try await session.data(for: URLRequest(url: url))
                    return (true, "\(data.count) bytes")
                } catch {
                    return (false, "\(error)")
                }
            }
        }

        // MARK: - Memory: 1 GiB transfers, raw URLSession

        static func rawDownload(url: String) async -> ChildResult {
            guard let url = URL(string: url) else { return failed("bad URL") }
            let session = session()
            return await measured {
                do {
                    let (file, response) = try await session.download(for: URLRequest(url: url))
                    defer { try? FileManager.default.removeItem(at: file) }
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    return (status == 200 && size > 0, "status \(status), \(size) bytes")
                } catch {
                    return (false, "\(error)")
                }
            }
        }

        static func rawUpload(url: String, file: String) async -> ChildResult {
            guard let url = URL(string: url) else { return failed("bad URL") }
            let session = session()
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            return await measured {
                do {
                    let (_, response) = try await session.upload(for: request, fromFile: URL(fileURLWithPath: file))
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    return (status == 204, "status \(status)")
                } catch {
                    return (false, "\(error)")
                }
            }
        }

        // MARK: - Memory: 1 GiB transfers, the library's file API

        // Through `BothamAPIClient` + `URLSessionHTTPClient`: `apiClient.download` to a file (deleted afterwards) and
        // `apiClient.upload` of the file with PUT, expecting 204.

        static func libraryDownload(url: String) async -> ChildResult {
            let destination = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent("botham-bench-\(UUID().uuidString).bin")
            let apiClient = BothamAPIClient(baseEndpoint: url)
            return await measured {
                defer { try? FileManager.default.removeItem(at: destination) }
                switch await apiClient.download(
                    apiClient.request(.get, "").withTimeout(.seconds(600)), to: .file(destination))
                {
                case .success(let response):
                    let size =
                        (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? -1
                    return (response.statusCode == 200 && size > 0, "status \(response.statusCode), \(size) bytes")
                case .failure(let error):
                    return (false, "\(error)")
                }
            }
        }

        static func libraryUpload(url: String, file: String) async -> ChildResult {
            let apiClient = BothamAPIClient(baseEndpoint: url)
            let request = apiClient.request(.put, "", body: .file(URL(fileURLWithPath: file))).withTimeout(
                .seconds(600))
            return await measured {
                switch await apiClient.send(request) {
                case .success(let response): return (response.statusCode == 204, "status \(response.statusCode)")
                case .failure(let error): return (false, "\(error)")
                }
            }
        }

        // MARK: - Memory: many concurrent calls over the stub transport

        /// `count` calls in flight at once through `BothamAPIClient` over `StubHTTPClient` (each answer waits 1 s of
        /// real time, so they all overlap).
        static func stubCalls(_ count: Int) async -> ChildResult {
            let stub = StubHTTPClient(latency: .clock)
            stub.stub(.any, with: StubResponse.json(["id": 1, "name": "botham"]).delayed(by: .seconds(1)))
            let client = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
            return await measured {
                let successes = await withTaskGroup(of: Bool.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            if case .success = await client.GET("/items/\(index)") { return true }
                            return false
                        }
                    }
                    return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                return (successes == count, "\(successes)/\(count) calls")
            }
        }

        /// `count` tasks that only sleep 1 s: what Swift tasks alone cost, without the library.
        static func tasksOnly(_ count: Int) async -> ChildResult {
            await measured {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<count {
                        group.addTask { try? await Task.sleep(for: .seconds(1)) }
                    }
                }
                return (true, "\(count) tasks")
            }
        }

        // MARK: - Slow server

        /// `calls` concurrent calls to a server that answers after a delay; CPU is measured over the wait.
        static func slow(url: String, variant: String, calls: Int) async -> ChildResult {
            guard let url = URL(string: url) else { return failed("bad URL") }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = calls
            configuration.timeoutIntervalForRequest = 60
            let send: @Sendable () async -> Bool
            switch variant {
            case "raw-urlsession":
                let session = URLSession(configuration: configuration)
                send = {
                    guard let (_, response) = try? await session.data(for: URLRequest(url: url)) else { return false }
                    return (response as? HTTPURLResponse)?.statusCode == 200
                }
            case "botham+urlsession":
                let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
                let client = BothamAPIClient(
                    baseEndpoint: origin,
                    httpClient: URLSessionHTTPClient(sessionConfiguration: configuration)
                )
                let path = url.path
                send = {
                    if case .success = await client.GET(path) { return true }
                    return false
                }
            case "botham+native":
                let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
                var nativeConfiguration = NativeHTTPClient.Configuration()
                nativeConfiguration.maxConnectionsPerHost = calls
                let client = BothamAPIClient(
                    baseEndpoint: origin, httpClient: NativeHTTPClient(configuration: nativeConfiguration))
                let path = url.path
                send = {
                    if case .success = await client.GET(path) { return true }
                    return false
                }
            default:
                return failed("unknown slow variant \(variant)")
            }
            return await measured {
                let successes = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<calls { group.addTask { await send() } }
                    return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                return (successes == calls, "\(successes)/\(calls) calls")
            }
        }
    }

#endif
