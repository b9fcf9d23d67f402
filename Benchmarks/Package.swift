// swift-tools-version:6.0
import PackageDescription

// The benchmarks: a package of their own, so the library's manifest lists only the product. They use the library
// as a user does, through its products (the root package, `..`). Built in release by scripts/bench.sh and
// scripts/transfer-memory.sh (see BENCHMARKS.md); `swift build -c release` here builds them all into Benchmarks/.build.
let package = Package(
    name: "BothamNetworkingBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "BothamNetworking", path: "..")],
    targets: [
        // Speed and memory of the library against baselines measured in the same run: scripts/bench.sh.
        .executableTarget(
            name: "BothamBenchmarks",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingTesting", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
                "CMallocCounter",
            ],
            path: "BothamBenchmarks"
        ),
        // Counts malloc calls for the allocation figures of BothamBenchmarks.
        .target(name: "CMallocCounter", path: "CMallocCounter"),
        // Sequential GETs with NativeHTTPClient and URLSession in one process, for a quick comparison by hand.
        .executableTarget(
            name: "NativeQuickBench",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
            ],
            path: "NativeQuickBench"
        ),
        // Peak memory of a 1 GiB download to a file, upload from a file and streamed body: scripts/transfer-memory.sh.
        .executableTarget(
            name: "AutobahnTestee",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
            ],
            path: "AutobahnTestee"
        ),
        .executableTarget(
            name: "TransferMemory",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
            ],
            path: "TransferMemory"
        ),
        // WebSocket echo round trips and streaming memory, next to the Python `websockets` client: scripts/ws-bench.sh.
        .executableTarget(
            name: "WebSocketBench",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
            ],
            path: "WebSocketBench"
        ),
        // New TLS connections/s and CPU per connection, session resumption on and off: scripts/tls-resumption-bench.sh.
        .executableTarget(
            name: "TLSResumptionBench",
            dependencies: [
                .product(name: "BothamNetworking", package: "BothamNetworking"),
                .product(name: "BothamNetworkingNative", package: "BothamNetworking"),
            ],
            path: "TLSResumptionBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
