// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation

    /// Case `loops`: `BothamAPIClient` + `NativeHTTPClient` on one event loop against the same on N loops
    /// (`--loops`, default one per core, at least 2), the calling tasks off the loops (the client picks the least
    /// busy loop: what users get by default) and on them (task `i` prefers loop `i % N`); 1, 16, 64 and 256 in flight
    /// (`--loop-concurrency`). Both clients have the same connection cap (max(8, in flight)) and the ratios are
    /// against one loop with the calls off it, measured in the same run, interleaved.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct LoopScalingCase {
        let options: Options
        let report: Report
        let url: URL

        func run() async {
            let loops = options.loops ?? max(2, NativeHTTPClient.EventLoopCount.perCore.count)
            let origin = url.absoluteString.replacingOccurrences(of: url.path, with: "")
            let path = url.path
            print("1 loop against \(loops) loops on \(ProcessInfo.processInfo.activeProcessorCount) cores")
            for concurrency in options.loopConcurrencies {
                func client(loops: Int) -> (BothamAPIClient, NativeHTTPClient) {
                    var configuration = NativeHTTPClient.Configuration()
                    configuration.eventLoops = .count(loops)
                    configuration.maxConnectionsPerHost = max(8, concurrency)
                    let transport = NativeHTTPClient(configuration: configuration)
                    return (BothamAPIClient(baseEndpoint: origin, httpClient: transport), transport)
                }
                let (one, oneTransport) = client(loops: 1)
                let (many, manyTransport) = client(loops: loops)
                let variants = [
                    ConcurrentGETs.Variant(
                        name: "botham+native 1 loop, off it", client: one, executors: [], path: path),
                    ConcurrentGETs.Variant(
                        name: "botham+native 1 loop, on it", client: one, executors: oneTransport.taskExecutors,
                        path: path),
                    ConcurrentGETs.Variant(
                        name: "botham+native \(loops) loops, on them", client: many,
                        executors: manyTransport.taskExecutors, path: path),
                    ConcurrentGETs.Variant(
                        name: "botham+native \(loops) loops, off them", client: many, executors: [], path: path),
                ]
                let label = concurrency == 1 ? " sequential" : " \(concurrency) in flight"
                await ConcurrentGETs.compare(
                    variants, runs: options.runs, requests: requestCount(concurrency), concurrency: concurrency,
                    label: label, benchCase: .loops, report: report)
            }
        }

        private func requestCount(_ concurrency: Int) -> Int {
            let total = concurrency == 1 ? options.requests : options.requests * 2
            return max(concurrency, total / concurrency * concurrency)
        }
    }

#endif
