// swift-tools-version:6.0
import PackageDescription

// The benchmarks: a package of their own, so the library's manifest lists only the product. They use the library
// as a user does, through its products (the root package, `..`). Built in release by scripts/bench.sh and
// scripts/transfer-memory.sh (see BENCHMARKS.md); `swift build -c release` here builds them all into Benchmarks/.build.

/// What every benchmark executable uses: the core, the native transport and the CPU and memory counters.
let library: [Target.Dependency] = [
    .product(name: "BothamNetworking", package: "BothamNetworking"),
    .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
    "BenchmarkSupport",
]

/// A benchmark executable in the folder of its name.
func executable(_ name: String, also: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: library + also, path: name)
}

let package = Package(
    name: "BothamNetworkingBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "BothamNetworking", path: "..")],
    targets: [
        // This process's CPU time and peak RSS (getrusage), for every executable below.
        .target(name: "BenchmarkSupport", path: "BenchmarkSupport"),
        // Counts malloc calls for the allocation figures of BothamBenchmarks.
        .target(name: "CMallocCounter", path: "CMallocCounter"),
        // Speed and memory of the library against baselines measured in the same run: scripts/bench.sh.
        executable(
            "BothamBenchmarks",
            also: [.product(name: "BothamNetworkingTesting", package: "BothamNetworking"), "CMallocCounter"]),
        // Sequential GETs with NativeHTTPClient and URLSession in one process, for a quick comparison by hand.
        executable("NativeQuickBench"),
        // The client Autobahn|Testsuite's fuzzing server tests: scripts/autobahn.sh.
        executable("AutobahnTestee"),
        // Peak memory of a 1 GiB download to a file, upload from a file and streamed body: scripts/transfer-memory.sh.
        executable("TransferMemory"),
        // WebSocket echo round trips and streaming memory, next to the Python `websockets` client: scripts/ws-bench.sh.
        executable("WebSocketBench"),
        // New TLS connections/s and CPU per connection, session resumption on and off: scripts/tls-resumption-bench.sh.
        executable("TLSResumptionBench"),
    ],
    swiftLanguageModes: [.v6]
)
