// New TLS connections per second and CPU per connection of NativeHTTPClient with TLS session resumption on and off,
// in one process, against an nginx that closes every connection (`Connection: close`): scripts/tls-resumption-bench.sh.
//
// Usage: TLSResumptionBench <ca.pem> <tls1.3 port> <tls1.2 port> [requests per round] [rounds]
// Each round runs every case once, in alternating order, so both modes see the same machine state; the figures are
// medians over the rounds. nginx's `X-Session-Reused` header counts the connections it resumed.
import BenchmarkSupport
import BothamNetworking
import BothamNetworkingNative
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Measurement {
    var seconds: Double
    var cpuSeconds: Double
    var resumed: Int
}

func run(caPEM: Data, port: Int, resumption: Bool, requests: Int) async throws -> Measurement {
    var configuration = NativeHTTPClient.Configuration()
    configuration.tls.trustRoots = .pem(caPEM)
    configuration.tls.sessionResumption = resumption
    let client = NativeHTTPClient(configuration: configuration)
    let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(port)", path: "/hello.txt")
    // One warm-up request: the context (trust store) is loaded and, with resumption on, a session stored.
    _ = try await client.send(request)
    var resumed = 0
    let cpuStart = ResourceUsage.now().cpuSeconds
    let stopwatch = Stopwatch()
    for _ in 0..<requests {
        let response = try await client.send(request)
        guard response.statusCode == 200 else { throw BenchError(description: "status \(response.statusCode)") }
        if response.headers["X-Session-Reused"] == "r" { resumed += 1 }
    }
    return Measurement(
        seconds: stopwatch.seconds, cpuSeconds: ResourceUsage.now().cpuSeconds - cpuStart, resumed: resumed)
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let port13 = Int(arguments[2]), let port12 = Int(arguments[3]) else {
    print("usage: TLSResumptionBench <ca.pem> <tls1.3 port> <tls1.2 port> [requests per round] [rounds]")
    exit(2)
}
let caPEM = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let requests = arguments.count > 4 ? Int(arguments[4]) ?? 500 : 500
let rounds = arguments.count > 5 ? Int(arguments[5]) ?? 5 : 5

let cases: [(name: String, port: Int, resumption: Bool)] = [
    ("TLS 1.3, resumption on", port13, true), ("TLS 1.3, resumption off", port13, false),
    ("TLS 1.2, resumption on", port12, true), ("TLS 1.2, resumption off", port12, false),
]
var results = [String: [Measurement]]()
for round in 0..<rounds {
    let order = round % 2 == 0 ? cases : cases.reversed()
    for item in order {
        let measurement = try await run(
            caPEM: caPEM, port: item.port, resumption: item.resumption, requests: requests)
        results[item.name, default: []].append(measurement)
    }
}

print("\(requests) sequential requests per round, one new TLS connection each (Connection: close), \(rounds) rounds")
print("case                       connections/s   CPU µs/connection   resumed (nginx)")
var rates: [String: Double] = [:]
var cpus: [String: Double] = [:]
var wrong: [String] = []
for item in cases {
    let measurements = results[item.name] ?? []
    // The figures mean something only if nginx resumed every connection with resumption on, and none with it off.
    let expected = item.resumption ? requests : 0
    if measurements.contains(where: { $0.resumed != expected }) {
        wrong.append("\(item.name): nginx resumed \(measurements.map(\.resumed)) of \(requests), not \(expected)")
    }
    let rate = Summary(measurements.map { Double(requests) / $0.seconds }).median
    let cpu = Summary(measurements.map { $0.cpuSeconds / Double(requests) * 1e6 }).median
    let resumed = measurements.map(\.resumed).min() ?? 0
    rates[item.name] = rate
    cpus[item.name] = cpu
    let name = item.name.padding(toLength: 26, withPad: " ", startingAt: 0)
    print("\(name) \(String(format: "%13.0f", rate))   \(String(format: "%17.0f", cpu))   \(resumed)/\(requests)")
}
for version in ["TLS 1.3", "TLS 1.2"] {
    let on = "\(version), resumption on"
    let off = "\(version), resumption off"
    if let rateOn = rates[on], let rateOff = rates[off], let cpuOn = cpus[on], let cpuOff = cpus[off] {
        print(
            "\(version): resumption gives \(String(format: "%.2f", rateOn / rateOff))x the connections/s at "
                + "\(String(format: "%.2f", cpuOn / cpuOff))x the CPU per connection")
    }
}
if !wrong.isEmpty {
    print("FAILED: " + wrong.joined(separator: "; "))
    exit(1)
}
