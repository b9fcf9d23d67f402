// WebSocket echo round trips and streaming memory of NativeHTTPClient's WebSockets through BothamAPIClient:
// scripts/ws-bench.sh runs it next to the Python `websockets` client (scripts/ws_bench_client.py), against one
// server (scripts/ws_echo_server.js), and compares them (BENCHMARKS.md).
//
//   WebSocketBench echo URL --size BYTES --connections N [--seconds S | --count N] [--warmup S] [--off-loop]
//       opens N sockets to URL (ws://HOST:PORT/echo), then on each: send a binary message of BYTES, await its echo,
//       repeat, for S seconds (default 3) or N round trips per socket; the sockets run at once. By default the
//       calling tasks prefer the client's event loop (`taskExecutor`); --off-loop leaves them on the cooperative pool.
//   WebSocketBench stream URL [--pause-every K --pause-ms M]
//       reads every message of URL (ws://HOST:PORT/count?n=N), checking that each is 65536 octets and carries its
//       index; sleeps M ms after every K messages (default 4 and 1): a consumer slower than loopback.
//
// Each prints one machine-readable line, `RESULT key=value …` (scripts/ws-bench.sh reads them): messages (and for
// echo warmup_messages, the round trips of the warm-up before the measured window), seconds,
// msgs_per_s, cpu_us_per_msg (getrusage(RUSAGE_SELF) user + system over the measured window, divided by the round
// trips), and for echo p50_us / p99_us / max_us of the round trips (every socket's), for stream bytes and vmhwm_kib
// (the process's peak RSS from /proc/self/status). Exit status 1 when any socket failed or a message was wrong.
import BenchmarkSupport
import BothamNetworking
import BothamNetworkingNative
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic nanoseconds.
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// This process's user + system CPU time, in nanoseconds.
func cpuNanoseconds() -> UInt64 { UInt64(ResourceUsage.now().cpuSeconds * 1e9) }

/// The peak RSS so far (`VmHWM`), in KiB, or -1 when /proc cannot tell.
func peakRSSKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// The command line: the mode, the URL, and `--name value` options (or `--flag`).
struct Arguments {
    let mode: String
    let url: String
    private let values: [String: String]

    init(_ arguments: [String]) throws {
        guard arguments.count >= 3 else {
            throw Failure(description: "usage: WebSocketBench echo|stream ws://HOST:PORT/PATH [options]")
        }
        mode = arguments[1]
        url = arguments[2]
        var values: [String: String] = [:]
        var index = 3
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--") else { throw Failure(description: "unexpected argument \(name)") }
            if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                values[String(name.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                values[String(name.dropFirst(2))] = ""
                index += 1
            }
        }
        self.values = values
    }

    func int(_ name: String, _ fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw Failure(description: "--\(name) wants an integer, not \(text)") }
        return value
    }

    func double(_ name: String, _ fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw Failure(description: "--\(name) wants a number, not \(text)") }
        return value
    }

    func flag(_ name: String) -> Bool { values[name] != nil }
}

/// `url` split into the base endpoint (`ws://host:port`) and the path with its query.
func split(_ url: String) throws -> (base: String, path: String, query: [String: String]) {
    guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
    else { throw Failure(description: "not a URL: \(url)") }
    let port = components.port.map { ":\($0)" } ?? ""
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    return ("\(scheme)://\(host)\(port)", components.path.isEmpty ? "/" : components.path, query)
}

func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return Double(sorted[max(0, index)]) / 1000
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }

/// One socket's round trips until `deadline` (or `count` of them), each one's nanoseconds appended to `latencies`.
func echoLoop(
    _ socket: WebSocket, payload: Data, deadline: UInt64, count: Int, latencies: inout [UInt64]
) async throws -> Int {
    var iterator = socket.messages.makeAsyncIterator()
    var done = 0
    while count > 0 ? done < count : now() < deadline {
        let started = now()
        try await socket.send(.binary(payload))
        guard case .binary(let echo) = try await iterator.next() else {
            throw Failure(description: "the echo server closed or answered with text")
        }
        guard echo.count == payload.count else {
            throw Failure(description: "an echo of \(echo.count) octets for \(payload.count)")
        }
        latencies.append(now() - started)
        done += 1
    }
    return done
}

/// Every socket's round trips at once; returns the round trips, the wall nanoseconds and every latency.
func echoAll(
    _ sockets: [WebSocket], payload: Data, seconds: Double, count: Int
) async throws -> (messages: Int, nanoseconds: UInt64, latencies: [UInt64]) {
    let started = now()
    let deadline = started + UInt64(seconds * 1e9)
    let (messages, latencies) = try await withThrowingTaskGroup(
        of: (Int, [UInt64]).self, returning: (Int, [UInt64]).self
    ) { group in
        for socket in sockets {
            group.addTask {
                var latencies: [UInt64] = []
                latencies.reserveCapacity(count > 0 ? count : 1 << 16)
                let done = try await echoLoop(
                    socket, payload: payload, deadline: deadline, count: count, latencies: &latencies)
                return (done, latencies)
            }
        }
        var total = 0
        var all: [UInt64] = []
        for try await (done, latencies) in group {
            total += done
            all += latencies
        }
        return (total, all)
    }
    return (messages, now() - started, latencies)
}

func echo(_ arguments: Arguments) async throws {
    let size = try arguments.int("size", 64)
    let connections = max(1, try arguments.int("connections", 1))
    let seconds = try arguments.double("seconds", 3)
    let count = try arguments.int("count", 0)
    let warmup = try arguments.double("warmup", 0.5)
    let onLoop = !arguments.flag("off-loop")
    let (base, path, _) = try split(arguments.url)

    var configuration = NativeHTTPClient.Configuration()
    configuration.maxConnectionsPerHost = max(8, connections)
    let client = NativeHTTPClient(configuration: configuration)
    let apiClient = BothamAPIClient(baseEndpoint: base, httpClient: client)
    let options = WebSocket.Options(maxMessageSize: max(size, 1 << 20), compression: false)
    let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })

    let run: @Sendable () async throws -> Void = {
        var sockets: [WebSocket] = []
        for _ in 0..<connections { sockets.append(try await apiClient.webSocket(path, options: options)) }
        var warmupMessages = 0
        if warmup > 0 { warmupMessages = try await echoAll(sockets, payload: payload, seconds: warmup, count: 0).0 }
        let cpuBefore = cpuNanoseconds()
        let (messages, wall, latencies) = try await echoAll(sockets, payload: payload, seconds: seconds, count: count)
        let cpu = cpuNanoseconds() - cpuBefore
        for socket in sockets { await socket.close() }
        let sorted = latencies.sorted()
        let wallSeconds = Double(wall) / 1e9
        print(
            "RESULT client=swift\(onLoop ? "" : "-offloop") size=\(size) connections=\(connections)",
            "messages=\(messages) warmup_messages=\(warmupMessages) seconds=\(format(wallSeconds))",
            "msgs_per_s=\(format(Double(messages) / wallSeconds))",
            "cpu_us_per_msg=\(format(Double(cpu) / 1000 / Double(max(1, messages))))",
            "cpu_cores=\(format(Double(cpu) / Double(wall)))",
            "p50_us=\(format(percentile(sorted, 0.5))) p99_us=\(format(percentile(sorted, 0.99)))",
            "max_us=\(format(percentile(sorted, 1)))")
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        if onLoop, let executor = client.taskExecutor {
            try await withTaskExecutorPreference(executor) { try await run() }
            return
        }
    }
    try await run()
}

func stream(_ arguments: Arguments) async throws {
    let pauseEvery = max(1, try arguments.int("pause-every", 4))
    let pauseMilliseconds = try arguments.int("pause-ms", 1)
    let (base, path, query) = try split(arguments.url)
    let expected = Int(query["n"] ?? "") ?? -1
    let apiClient = BothamAPIClient(baseEndpoint: base, httpClient: NativeHTTPClient())
    var parameters = HTTPParameters()
    for (name, value) in query { parameters[name] = value }
    let socket = try await apiClient.webSocket(
        path, parameters: parameters, options: WebSocket.Options(maxMessageSize: 1 << 20, compression: false))
    let started = now()
    let cpuBefore = cpuNanoseconds()
    var messages = 0
    var bytes = 0
    for try await message in socket.messages {
        guard case .binary(let data) = message, data.count == 65536 else {
            throw Failure(description: "message \(messages) is not 65536 binary octets")
        }
        let index = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard index == messages, data[data.startIndex + 4] == 0, data[data.startIndex + 5] == 1 else {
            throw Failure(description: "message \(messages) carries index \(index) or the wrong octets")
        }
        messages += 1
        bytes += data.count
        if messages % pauseEvery == 0, pauseMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(pauseMilliseconds))
        }
    }
    let wall = now() - started
    let cpu = cpuNanoseconds() - cpuBefore
    guard expected < 0 || messages == expected else {
        throw Failure(
            description: "\(messages) messages of \(expected), closed with \(String(describing: socket.closeCode))")
    }
    let wallSeconds = Double(wall) / 1e9
    print(
        "RESULT client=swift mode=stream messages=\(messages) bytes=\(bytes) seconds=\(format(wallSeconds))",
        "mib_per_s=\(format(Double(bytes) / 1_048_576 / wallSeconds))",
        "cpu_us_per_msg=\(format(Double(cpu) / 1000 / Double(max(1, messages))))",
        "close_code=\(socket.closeCode?.rawValue ?? 0) vmhwm_kib=\(peakRSSKiB())")
}

/// Runs the mode off the main thread, which waits on a semaphore (valgrind 3.19 crashes while the main thread sits in
/// `dispatch_main`, as BothamBenchmarks found).
/// The exit status, set by the detached task and read after it signalled.
final class ExitStatus: @unchecked Sendable {
    // Safe: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Int32 = 0

    func set(_ status: Int32) { lock.withLock { value = status } }
    func get() -> Int32 { lock.withLock { value } }
}

let finished = DispatchSemaphore(value: 0)
let status = ExitStatus()
Task.detached {
    do {
        let arguments = try Arguments(CommandLine.arguments)
        switch arguments.mode {
        case "echo": try await echo(arguments)
        case "stream": try await stream(arguments)
        default: throw Failure(description: "unknown mode \(arguments.mode): echo or stream")
        }
    } catch {
        FileHandle.standardError.write(Data("WebSocketBench: \(error)\n".utf8))
        status.set(1)
    }
    finished.signal()
}
finished.wait()
exit(status.get())
