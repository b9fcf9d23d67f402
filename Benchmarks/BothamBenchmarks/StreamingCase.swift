// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import BothamNetworkingNative
    import Foundation
    import Glibc

    /// Case 5: streamed responses through `BothamAPIClient.stream(…)`, on both transports.
    ///
    /// - Throughput: Server-Sent Events parsed and delivered per second (`stream.events`), small events
    ///   (`data: {"i":N}`, about 19 bytes each) from a static `text/event-stream` file on nginx, against the same file
    ///   read through `stream.body` with the chunks only counted (the bytes/s a zero-cost parser would reach), same
    ///   client, same run; a buffered `GET` of the file is the reference for `stream.body`.
    /// - Latency: an in-process server thread writes a timestamped event every few milliseconds; the reader subtracts
    ///   the timestamp from its own reading of the same monotonic clock when the event reaches it. Baseline: a plain
    ///   thread blocked in `recv` on the same kind of stream (the kernel's loopback and one thread wake-up).
    /// Uses task executors (the native client's event loop), new in macOS 15 / iOS 18.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct StreamingCase {
        let options: Options
        let report: Report

        func run() async {
            if let text = options.eventsURL, let url = URL(string: text) {
                await throughput(url)
            } else {
                report.note("streaming: no --events-url, the throughput part is skipped (scripts/bench.sh passes one)")
            }
            await latency()
        }

        // MARK: - Throughput

        private struct Outcome: Sendable {
            var events = 0
            var bytes = 0
            var chunks = 0
            var lastData = ""
            var error: String?

            static func failed(_ error: String) -> Outcome {
                var outcome = Outcome()
                outcome.error = error
                return outcome
            }
        }

        private enum Reading: Sendable {
            case get, body, events
        }

        private struct Variant: Sendable {
            let name: String
            let reading: Reading
            let client: BothamAPIClient
            let path: String

            func read() async -> Outcome {
                switch reading {
                case .get:
                    switch await client.GET(path) {
                    case .success(let response):
                        var outcome = Outcome()
                        outcome.bytes = response.body.count
                        outcome.chunks = 1
                        return outcome
                    case .failure(let error): return .failed("\(error)")
                    }
                case .body:
                    do {
                        let response = try await client.stream(.get, path)
                        var outcome = Outcome()
                        for try await chunk in response.body {
                            outcome.bytes += chunk.count
                            outcome.chunks += 1
                        }
                        return outcome
                    } catch {
                        return .failed("\(error)")
                    }
                case .events:
                    do {
                        let response = try await client.stream(.get, path)
                        var outcome = Outcome()
                        var last = ""
                        for try await event in response.events {
                            outcome.events += 1
                            outcome.bytes += event.data.utf8.count
                            last = event.data
                        }
                        outcome.lastData = last
                        return outcome
                    } catch {
                        return .failed("\(error)")
                    }
                }
            }
        }

        private struct Samples {
            var seconds: [Double] = []
            var cpuSeconds: [Double] = []
            var chunks: [Double] = []
        }

        /// What the file holds, from one buffered read (which also puts it in the page cache).
        private struct Expected {
            let bytes: Int
            let events: Int
            let lastData: String
        }

        private func expectedContent(_ client: BothamAPIClient, path: String) async -> Expected? {
            guard case .success(let response) = await client.GET(path), response.statusCode == 200 else { return nil }
            let body = response.body
            var events = 0
            var previous: UInt8 = 0
            for byte in body {
                if byte == 0x0A && previous == 0x0A { events += 1 }
                previous = byte
            }
            guard let range = body.range(of: Data("data: ".utf8), options: .backwards),
                body.count >= range.upperBound + 2
            else { return nil }
            let lastData = String(decoding: body[range.upperBound..<(body.count - 2)], as: UTF8.self)
            return Expected(bytes: body.count, events: events, lastData: lastData)
        }

        private func throughput(_ url: URL) async {
            let path = url.path
            let origin = url.absoluteString.replacingOccurrences(of: path, with: "")
            let clients = [
                ("botham+native", BothamAPIClient(baseEndpoint: origin, httpClient: NativeHTTPClient())),
                ("botham+urlsession", BothamAPIClient(baseEndpoint: origin, httpClient: URLSessionHTTPClient())),
            ]
            guard let expected = await expectedContent(clients[0].1, path: path), expected.events > 0 else {
                report.note("streaming: cannot read the events file at \(url)")
                return
            }
            let readings: [(Reading, String)] = [(.get, "GET"), (.body, "stream.body"), (.events, "stream.events")]
            let variants = clients.flatMap { name, client in
                readings.map { reading, label in
                    Variant(name: "\(name) \(label)", reading: reading, client: client, path: path)
                }
            }
            report.note(
                "streaming throughput: \(expected.events) events of ~\(expected.bytes / expected.events) bytes "
                    + "(\(Report.format(Double(expected.bytes) / 1_048_576)) MiB, `data: {\"i\":N}`) from nginx "
                    + "(static file, Content-Type text/event-stream, sendfile); like-for-like: each transport's "
                    + "stream.events is compared with its own stream.body over the same file, same client, same run "
                    + "(chunks counted, not parsed: the rate of a zero-cost parser), and stream.body with a buffered GET; "
                    + "CPU is this process's only (nginx is another)")
            for variant in variants { _ = await variant.read() }  // warm-up: connections, sessions, caches
            var samples = [String: Samples]()
            for run in 0..<options.runs {
                let order = (0..<variants.count).map { variants[($0 + run) % variants.count] }
                for variant in order {
                    let usage = ResourceUsage.now()
                    let stopwatch = Stopwatch()
                    let outcome = await variant.read()
                    let seconds = stopwatch.seconds
                    let cpu = ResourceUsage.now().cpuSeconds - usage.cpuSeconds
                    if let problem = Self.problem(outcome, variant.reading, expected) {
                        report.fail("streaming: \(variant.name) run \(run + 1): \(problem)")
                        continue
                    }
                    samples[variant.name, default: Samples()].seconds.append(seconds)
                    samples[variant.name, default: Samples()].cpuSeconds.append(cpu)
                    samples[variant.name, default: Samples()].chunks.append(Double(outcome.chunks))
                }
            }
            let events = Double(expected.events)
            let mebibytes = Double(expected.bytes) / 1_048_576
            for (name, _) in clients {
                guard let get = samples["\(name) GET"], let body = samples["\(name) stream.body"],
                    let parsed = samples["\(name) stream.events"]
                else { continue }
                let getRate = get.seconds.map { mebibytes / $0 }
                let bodyRate = body.seconds.map { mebibytes / $0 }
                report.add(ResultRow(.streaming, "\(name) GET", "MiB/s", getRate))
                report.add(
                    ResultRow(.streaming, "\(name) stream.body", "MiB/s", bodyRate, against: "\(name) GET", getRate))
                report.add(
                    ResultRow(
                        .streaming, "\(name) stream.body", "bytes/chunk",
                        body.chunks.map { Double(expected.bytes) / $0 }))
                let bodyEvents = body.seconds.map { events / $0 }
                let bodyCPU = body.cpuSeconds.map { $0 * 1e9 / events }
                report.add(ResultRow(.streaming, "\(name) stream.body", "events/s", bodyEvents))
                report.add(ResultRow(.streaming, "\(name) stream.body", "CPU ns/event", bodyCPU))
                report.add(
                    ResultRow(
                        .streaming, "\(name) stream.events", "events/s", parsed.seconds.map { events / $0 },
                        against: "\(name) stream.body", bodyEvents))
                report.add(
                    ResultRow(
                        .streaming, "\(name) stream.events", "CPU ns/event",
                        parsed.cpuSeconds.map { $0 * 1e9 / events },
                        against: "\(name) stream.body", bodyCPU))
                report.add(
                    ResultRow(
                        .streaming, "\(name) stream.events", "parse+deliver ns/event",
                        zip(parsed.seconds, body.seconds).map { ($0 - $1) * 1e9 / events }))
            }
        }

        private static func problem(_ outcome: Outcome, _ reading: Reading, _ expected: Expected) -> String? {
            if let error = outcome.error { return error }
            switch reading {
            case .get, .body:
                guard outcome.bytes == expected.bytes else { return "\(outcome.bytes) of \(expected.bytes) bytes" }
            case .events:
                guard outcome.events == expected.events, outcome.lastData == expected.lastData else {
                    return "\(outcome.events) of \(expected.events) events, last \(outcome.lastData.prefix(40))"
                }
            }
            return nil
        }

        // MARK: - Latency

        private struct LatencyVariant: Sendable {
            let name: String
            let read: @Sendable () async -> (latencies: [Int64], error: String?)
        }

        private func latency() async {
            let count = options.latencyEvents
            let interval = options.latencyInterval
            let server: LoopbackServer
            do {
                server = try LoopbackServer(.events(count: count, interval: interval))
            } catch {
                report.note("streaming: cannot start the event server: \(error)")
                return
            }
            server.start()
            let port = server.port
            let origin = "http://127.0.0.1:\(port)"
            let nativeTransport = NativeHTTPClient()
            let native = BothamAPIClient(baseEndpoint: origin, httpClient: nativeTransport)
            let loop = nativeTransport.taskExecutor
            let urlSession = BothamAPIClient(baseEndpoint: origin, httpClient: URLSessionHTTPClient())
            let every = "1 event / \(Report.format(interval * 1000)) ms"
            let raw = LatencyVariant(name: "raw socket reader thread, \(every)") {
                await RawEventReader.read(port: port, count: count)
            }
            let variants = [
                raw,
                LatencyVariant(name: "botham+native stream.events, \(every)") {
                    await Self.consume(native, count: count)
                },
                // The reading task on the client's event loop: the chunk reaches it without a second thread wake-up.
                LatencyVariant(name: "botham+native on its loop stream.events, \(every)") {
                    await withTaskExecutorPreference(loop) { await Self.consume(native, count: count) }
                },
                LatencyVariant(name: "botham+urlsession stream.events, \(every)") {
                    await Self.consume(urlSession, count: count)
                },
            ]
            let skipped = min(5, count / 10)
            report.note(
                "streaming latency: an in-process server thread writes `data: {\"i\":N,\"t\":T}` every "
                    + "\(Report.format(interval * 1000)) ms (chunked, one send per event, TCP_NODELAY), T = "
                    + "CLOCK_MONOTONIC just before the send; each reader takes the same clock when the event reaches it. "
                    + "\(count) events per run, the first \(skipped) left out; median and p99 per run. Baseline: a thread "
                    + "blocked in recv on the same stream (no HTTP, no parser)")
            var medians = [String: [Double]]()
            var p99s = [String: [Double]]()
            var pooled = [String: [Int64]]()
            for run in 0..<options.runs {
                for variant in (0..<variants.count).map({ variants[($0 + run) % variants.count] }) {
                    let (latencies, error) = await variant.read()
                    if let error {
                        report.fail("streaming: \(variant.name) run \(run + 1): \(error)")
                        continue
                    }
                    let kept = Array(latencies.dropFirst(skipped))
                    guard !kept.isEmpty else { continue }
                    medians[variant.name, default: []].append(Self.percentile(kept, 0.5) / 1000)
                    p99s[variant.name, default: []].append(Self.percentile(kept, 0.99) / 1000)
                    pooled[variant.name, default: []].append(contentsOf: kept)
                }
            }
            guard let rawMedians = medians[raw.name], let rawP99s = p99s[raw.name] else { return }
            report.add(ResultRow(.streaming, raw.name, "arrival→reader median µs", rawMedians))
            report.add(ResultRow(.streaming, raw.name, "arrival→reader p99 µs", rawP99s))
            for variant in variants.dropFirst() {
                guard let median = medians[variant.name], let p99 = p99s[variant.name] else { continue }
                report.add(
                    ResultRow(
                        .streaming, variant.name, "arrival→reader median µs", median, against: raw.name, rawMedians))
                report.add(
                    ResultRow(.streaming, variant.name, "arrival→reader p99 µs", p99, against: raw.name, rawP99s))
            }
            for variant in variants {
                guard let all = pooled[variant.name] else { continue }
                report.note(
                    "streaming latency, all runs pooled, \(variant.name): \(all.count) events, median "
                        + "\(Report.format(Self.percentile(all, 0.5) / 1000)) µs, p99 "
                        + "\(Report.format(Self.percentile(all, 0.99) / 1000)) µs, max "
                        + "\(Report.format(Double(all.max() ?? 0) / 1000)) µs")
            }
        }

        /// Reads `/events` through `client.stream(…).events`, taking the clock as each event arrives.
        private static func consume(_ client: BothamAPIClient, count: Int) async -> ([Int64], String?) {
            var latencies: [Int64] = []
            latencies.reserveCapacity(count)
            do {
                let response = try await client.stream(.get, "/events")
                for try await event in response.events {
                    let now = MonotonicTime.nanoseconds()
                    guard let stamp = stamp(in: event.data.utf8) else { return (latencies, "no timestamp in an event") }
                    latencies.append(now - stamp)
                }
            } catch {
                return (latencies, "\(error)")
            }
            guard latencies.count == count else { return (latencies, "\(latencies.count) of \(count) events") }
            return (latencies, nil)
        }

        /// The number after the last `:` (the `"t":` field of `{"i":N,"t":T}`).
        static func stamp<Bytes: Sequence<UInt8>>(in bytes: Bytes) -> Int64? {
            var value: Int64 = 0
            var digits = 0
            for byte in bytes {
                if byte == UInt8(ascii: ":") {
                    value = 0
                    digits = 0
                } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))
                    digits += 1
                }
            }
            return digits > 0 ? value : nil
        }

        /// The nearest-rank percentile `fraction` of `values`, as a Double.
        static func percentile(_ values: [Int64], _ fraction: Double) -> Double {
            guard !values.isEmpty else { return .nan }
            let sorted = values.sorted()
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return Double(sorted[min(max(rank, 1), sorted.count) - 1])
        }
    }

    /// The latency baseline: a thread blocked in `recv` on a raw socket, no HTTP client and no parser; it takes the clock
    /// as soon as `recv` returns and finds the timestamps of the complete events in what it read.
    enum RawEventReader {
        static func read(port: UInt16, count: Int) async -> ([Int64], String?) {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: run(port: port, count: count)) }.start()
            }
        }

        private static func run(port: UInt16, count: Int) -> ([Int64], String?) {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { return ([], "socket() failed") }
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else { return ([], "connect() failed") }
            let request = Array(
                "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
            guard
                request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
                    == request.count
            else { return ([], "send() failed") }
            var latencies: [Int64] = []
            latencies.reserveCapacity(count)
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while latencies.count < count {
                let received = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                let now = MonotonicTime.nanoseconds()
                guard received > 0 else { return (latencies, "the stream ended after \(latencies.count) events") }
                pending.append(contentsOf: buffer[0..<received])
                // Every complete event (up to a blank line) in what has arrived.
                var start = 0
                var index = 1
                while index < pending.count {
                    if pending[index] == 0x0A && pending[index - 1] == 0x0A {
                        guard let stamp = StreamingCase.stamp(in: pending[start..<index]) else {
                            return (latencies, "no timestamp in an event")
                        }
                        latencies.append(now - stamp)
                        start = index + 1
                    }
                    index += 1
                }
                pending.removeFirst(start)
            }
            return (latencies, nil)
        }
    }

#endif
