// swift-tools-version:6.0
import PackageDescription

// Apple minimums: `Duration`, `ContinuousClock` and `Clock.sleep(for:)`, which the retry and timeout code is built
// on, first shipped in macOS 13 / iOS 16 / tvOS 16 / watchOS 9. Nothing newer is needed.
let package = Package(
    name: "BothamNetworking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "BothamNetworking", targets: ["BothamNetworking"]),
        .library(name: "BothamNetworkingTesting", targets: ["BothamNetworkingTesting"]),
        .executable(name: "BothamBenchmarks", targets: ["BothamBenchmarks"]),
    ],
    targets: [
        .target(name: "BothamNetworking"),
        .target(name: "BothamNetworkingTesting", dependencies: ["BothamNetworking"]),
        // Benchmarks: built in release by scripts/bench.sh, never part of `swift test` (see BENCHMARKS.md).
        .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
        .executableTarget(
            name: "BothamBenchmarks",
            dependencies: ["BothamNetworking", "BothamNetworkingTesting", "CMallocCounter"],
            path: "Benchmarks/BothamBenchmarks"
        ),
        .testTarget(name: "BothamNetworkingTests", dependencies: ["BothamNetworking", "BothamNetworkingTesting"]),
        .testTarget(
            name: "BothamNetworkingTestingTests",
            dependencies: ["BothamNetworking", "BothamNetworkingTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
