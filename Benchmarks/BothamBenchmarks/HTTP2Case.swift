// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    /// Case `http2`: `BothamAPIClient` + `NativeHTTPClient` over HTTP/2 (h2c with prior knowledge, one connection)
    /// against the same client over HTTP/1.1 with at most 8 connections (the default cap) and with as many
    /// connections as calls in flight; the same nginx serving the same files on two ports (`--h2-url`,
    /// `--h2-medium-url` and `--url`, `--medium-url`), a small JSON file and 1 MiB, at 1, 16, 64 and 256 in flight
    /// (`--loop-concurrency`). Ratios are against HTTP/1.1 with 8 connections, measured in the same run,
    /// interleaved. Every client runs on one event loop and the calling tasks prefer its executor (no thread switch
    /// per call, the set-up for many small calls): what is measured is the transport, not the hops.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct HTTP2Case {
        let options: Options
        let report: Report

        func run() async {
            let bodies = [
                ("small JSON", options.url, options.h2URL),
                ("1 MiB", options.mediumURL, options.h2MediumURL),
            ]
            for (body, http1Text, http2Text) in bodies {
                guard let http1Text, let http2Text, let http1 = URL(string: http1Text),
                    let http2 = URL(string: http2Text)
                else {
                    report.note("http2 \(body): no URLs, skipped")
                    continue
                }
                for concurrency in options.loopConcurrencies {
                    await compare(body: body, http1: http1, http2: http2, concurrency: concurrency)
                }
            }
        }

        private func compare(body: String, http1: URL, http2: URL, concurrency: Int) async {
            func variant(_ name: String, _ url: URL, _ change: (inout NativeHTTPClient.Configuration) -> Void)
                -> ConcurrentGETs.Variant
            {
                var configuration = NativeHTTPClient.Configuration()
                // One loop for every variant, like for like: by default an HTTP/1.1 client runs one per core.
                configuration.eventLoops = .one
                change(&configuration)
                let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
                let transport = NativeHTTPClient(configuration: configuration)
                let client = BothamAPIClient(baseEndpoint: origin, httpClient: transport)
                return ConcurrentGETs.Variant(
                    name: name, client: client, executors: transport.taskExecutors, path: url.path)
            }
            let baseline = variant("native HTTP/1.1 ≤8 connections", http1) { $0.maxConnectionsPerHost = 8 }
            var variants = [baseline]
            if concurrency > 8 {
                variants.append(
                    variant("native HTTP/1.1 ≤\(concurrency) connections", http1) {
                        $0.maxConnectionsPerHost = concurrency
                    })
            }
            variants.append(variant("native HTTP/2 1 connection", http2) { $0.httpVersion = .http2PriorKnowledge })
            let requests = requestCount(concurrency, large: body != "small JSON")
            let label = ", \(body), \(concurrency == 1 ? "sequential" : "\(concurrency) in flight")"
            await ConcurrentGETs.compare(
                variants, runs: options.runs, requests: requests, concurrency: concurrency, label: label,
                benchCase: .http2, report: report)
        }

        /// Whole rounds of `concurrency`; a tenth as many 1 MiB requests as small ones.
        private func requestCount(_ concurrency: Int, large: Bool) -> Int {
            let total = large ? max(100, options.requests / 10) : options.requests * 2
            return max(concurrency, total / concurrency * concurrency)
        }
    }
#endif
