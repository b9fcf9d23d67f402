// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    /// Case `peers`: `BothamAPIClient` + `NativeHTTPClient` against the fastest HTTP/1.1 clients on the machine, the
    /// same nginx, the same files, the same run, interleaved: `wrk -t1 -c16` (one thread, 16 connections) with 16 calls
    /// in flight on 16 connections, small JSON and 1 MiB; one `curl` process fetching the small JSON over and over on
    /// one reused connection against sequential calls. wrk and curl run as child processes; their CPU is
    /// `getrusage(RUSAGE_CHILDREN)` around them, ours `getrusage(RUSAGE_SELF)` around the calls.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct PeersCase {
        let options: Options
        let report: Report

        /// Connections (wrk's `-c`) and calls in flight (ours).
        static let connections = 16

        private typealias Sample = Contenders.Sample
        private typealias Contender = Contenders.Contender

        func run() async {
            guard let smallText = options.url, let small = URL(string: smallText) else {
                report.note("peers: no --url, skipped")
                return
            }
            guard PeerTool.isInstalled("wrk"), PeerTool.isInstalled("curl") else {
                report.note("peers: wrk or curl is not installed (scripts/bench.sh --install), skipped")
                return
            }
            let origin = small.absoluteString.replacingOccurrences(of: small.path, with: "")
            var configuration = NativeHTTPClient.Configuration()
            configuration.maxConnectionsPerHost = Self.connections
            let transport = NativeHTTPClient(configuration: configuration)
            let client = BothamAPIClient(baseEndpoint: origin, httpClient: transport)
            let onLoop = transport.taskExecutors
            print(
                "peers: wrk -t1 -c\(Self.connections) for \(wrkSeconds) s a run; ours at most \(Self.connections) "
                    + "connections, \(Self.connections) calls in flight; curl: one process, one connection")

            let smallRequests = max(Self.connections, options.requests * 10 / Self.connections * Self.connections)
            await compare(
                label: ", small JSON, \(Self.connections) in flight",
                [
                    wrk(small),
                    native("botham+native on its loop", client, onLoop, small.path, smallRequests, Self.connections),
                    native("botham+native", client, [], small.path, smallRequests, Self.connections),
                ])

            let sequentialRequests = max(100, options.requests)
            await compare(
                label: ", small JSON, sequential",
                [
                    curl(small, requests: sequentialRequests),
                    native("botham+native on its loop", client, onLoop, small.path, sequentialRequests, 1),
                    native("botham+native", client, [], small.path, sequentialRequests, 1),
                ])

            guard let mediumText = options.mediumURL, let medium = URL(string: mediumText) else {
                report.note("peers 1 MiB: no --medium-url, skipped")
                return
            }
            let largeRequests = max(Self.connections * 4, options.requests / 4 / Self.connections * Self.connections)
            await compare(
                label: ", 1 MiB, \(Self.connections) in flight",
                [
                    wrk(medium),
                    native("botham+native on its loop", client, onLoop, medium.path, largeRequests, Self.connections),
                ])
        }

        /// wrk's run length: long enough for a steady rate, short enough for the smoke run.
        private var wrkSeconds: Int { options.quick ? 1 : 2 }

        /// `wrk -t1 -c16 -dS url`: its requests per second and CPU per request.
        private func wrk(_ url: URL) -> Contender {
            let arguments = ["-t1", "-c\(Self.connections)", "-d\(wrkSeconds)s", url.absoluteString]
            return Contender(name: "wrk -t1 -c\(Self.connections)") {
                guard let outcome = PeerTool.run("wrk", arguments) else { return Sample(failure: "wrk did not start") }
                return Self.parseWRK(outcome)
            }
        }

        /// wrk's report: "N requests in Xs, …", "Requests/sec: R", and the lines it prints only when some failed.
        private static func parseWRK(_ outcome: PeerTool.Outcome) -> Sample {
            let lines = outcome.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let requests = lines.first { $0.contains(" requests in ") }.flatMap { Int($0.prefix { $0 != " " }) }
            let rate = lines.first { $0.hasPrefix("Requests/sec:") }.flatMap {
                Double($0.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
            }
            guard outcome.exitStatus == 0, let requests, requests > 0, let rate else {
                return Sample(failure: "wrk exited \(outcome.exitStatus): \(outcome.output.suffix(300))")
            }
            if let failed = lines.first(where: { $0.hasPrefix("Non-2xx") || Self.isSocketFailure($0) }) {
                return Sample(failure: "wrk: \(failed)")
            }
            return Sample(requestsPerSecond: rate, cpuMicroseconds: outcome.cpuSeconds * 1e6 / Double(requests))
        }

        /// Whether wrk's "Socket errors: connect C, read R, write W, timeout T" line reports a failed connection, read
        /// or write. Timeouts alone (a request slower than wrk's 2 s, which a loaded CI machine can cause) are not
        /// failures: wrk leaves them out of its rate.
        private static func isSocketFailure(_ line: String) -> Bool {
            guard line.hasPrefix("Socket errors:") else { return false }
            return line.dropFirst("Socket errors:".count).split(separator: ",").contains { field in
                let parts = field.split(separator: " ")
                return parts.first != "timeout" && parts.last.flatMap { Int($0) }.map { $0 > 0 } ?? true
            }
        }

        /// One `curl` process GETting `url` `requests` times on one connection (a URL range, `?[1-N]`, which curl
        /// fetches one after another reusing the connection). Its start-up is taken out: a run of 1 request is
        /// measured too and subtracted.
        private func curl(_ url: URL, requests: Int) -> Contender {
            func fetch(_ count: Int) -> PeerTool.Outcome? {
                PeerTool.run("curl", ["-sf", "--fail-early", "\(url.absoluteString)?[1-\(count)]"], keepOutput: false)
            }
            return Contender(name: "curl, one process") {
                guard let one = fetch(1), let many = fetch(requests) else {
                    return Sample(failure: "curl did not start")
                }
                guard one.exitStatus == 0, many.exitStatus == 0 else {
                    return Sample(failure: "curl exited \(one.exitStatus), \(many.exitStatus)")
                }
                let extra = Double(requests - 1)
                return Sample(
                    requestsPerSecond: extra / (many.wallSeconds - one.wallSeconds),
                    cpuMicroseconds: (many.cpuSeconds - one.cpuSeconds) * 1e6 / extra)
            }
        }

        /// Our client GETting `path` `requests` times, `concurrency` at a time, the calling tasks on `executors`.
        private func native(
            _ name: String, _ client: BothamAPIClient, _ executors: [any TaskExecutor], _ path: String, _ requests: Int,
            _ concurrency: Int
        ) -> Contender {
            Contender(name: name) {
                let cost = await ConcurrentGETs.measure(
                    client, executors: executors, path: path, requests: requests, concurrency: concurrency)
                return Sample(
                    requestsPerSecond: cost.requestsPerSecond, cpuMicroseconds: cost.cpuMicrosecondsPerRequest,
                    failure: cost.failures > 0 ? "\(cost.failures) of \(requests) requests failed" : nil)
            }
        }

        private func compare(label: String, _ contenders: [Contender]) async {
            await Contenders.compare(contenders, runs: options.runs, label: label, benchCase: .peers, report: report)
        }
    }
#endif
