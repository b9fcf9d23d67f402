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
        .library(name: "BothamNetworkingNative", targets: ["BothamNetworkingNative"]),
        .library(name: "BothamNetworkingConformance", targets: ["BothamNetworkingConformance"]),
    ],
    targets: [
        .target(name: "BothamNetworking"),
        // HTTP/2's wire format without I/O (RFC 9113 frames, RFC 7541 HPACK): the native client's HTTP/2 and
        // MockWebServer's cleartext HTTP/2 are built on it. Not a product: its API is `package`.
        .target(name: "BothamHTTP2Wire"),
        // WebSocket's protocol without I/O (RFC 6455 frames and session, RFC 7692 permessage-deflate, the opening
        // handshake's checks): the native client's WebSockets and MockWebServer's are built on it. Not a product.
        .target(name: "BothamWebSocketWire", dependencies: ["CBothamZlib"]),
        .target(
            name: "BothamNetworkingTesting",
            dependencies: ["BothamNetworking", "BothamHTTP2Wire", "BothamWebSocketWire"]
        ),
        // The transport conformance suite a user runs against a transport of theirs (it serves with MockWebServer).
        .target(name: "BothamNetworkingConformance", dependencies: ["BothamNetworking", "BothamNetworkingTesting"]),
        .systemLibrary(
            name: "CBothamOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(name: "CBothamZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CBothamNativeShims", dependencies: ["CBothamOpenSSL", "CBothamZlib"]),
        .target(
            name: "BothamNetworkingNative",
            dependencies: [
                "BothamNetworking", "BothamHTTP2Wire", "BothamWebSocketWire", "CBothamOpenSSL", "CBothamZlib",
                "CBothamNativeShims",
            ]
        ),
        // Helpers shared by the test targets (seeded generator, recorder, timing scale); not a product.
        .target(
            name: "BothamTestSupport", dependencies: ["BothamNetworking", "BothamNetworkingConformance"],
            path: "Tests/BothamTestSupport"),
        .testTarget(
            name: "BothamNetworkingTests",
            dependencies: ["BothamNetworking", "BothamNetworkingTesting", "BothamTestSupport"]
        ),
        .testTarget(
            name: "ReadmeTests",
            dependencies: [
                "BothamNetworking", "BothamNetworkingTesting", "BothamNetworkingNative", "BothamNetworkingConformance",
            ]
        ),
        .testTarget(name: "BothamHTTP2WireTests", dependencies: ["BothamHTTP2Wire", "BothamTestSupport"]),
        .testTarget(name: "BothamWebSocketWireTests", dependencies: ["BothamWebSocketWire"]),
        .testTarget(
            name: "BothamNetworkingTestingTests",
            dependencies: ["BothamNetworking", "BothamNetworkingTesting", "BothamHTTP2Wire", "BothamTestSupport"]
        ),
        .testTarget(
            name: "BothamNetworkingNativeTests",
            dependencies: [
                "BothamNetworking", "BothamNetworkingNative", "BothamHTTP2Wire", "BothamNetworkingTesting",
                "CBothamZlib",
                "BothamTestSupport",
            ]
        ),
        // Every MockWebServer integration test, run once per transport.
        .testTarget(
            name: "BothamNetworkingTransportTests",
            dependencies: [
                "BothamNetworking", "BothamNetworkingTesting", "BothamNetworkingNative", "BothamTestSupport",
            ]
        ),
        // The conformance suite on both transports, and deliberately broken transports that must fail it.
        .testTarget(
            name: "BothamNetworkingConformanceTests",
            dependencies: [
                "BothamNetworking", "BothamNetworkingNative", "BothamNetworkingConformance", "BothamTestSupport",
            ]
        ),
        // The child process of DiskCacheCrashTests: writes disk cache entries until it is killed.
        .executableTarget(
            name: "CacheCrashWriter", dependencies: ["BothamNetworking"], path: "Tests/CacheCrashWriter"),
        // Runs against a live httpbin (scripts/httpbin.sh); skipped unless HTTPBIN_URL is set.
        .testTarget(
            name: "BothamNetworkingInteropTests",
            dependencies: [
                "BothamNetworking", "BothamNetworkingNative", "BothamNetworkingTesting", "BothamTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The playground: the original Xcode playground's pages as runnable programs. `swift run Playgrounds` runs them all;
// `swift run <Page>` runs one.
let playgroundPages = [
    "Home", "Headers", "Parameters", "Body", "Interceptors", "BasicAuthentication", "Retry", "TokenRefresh",
    "TypedEndpoints", "UploadsAndDownloads", "Streaming", "Caching", "TestingWithStubs", "TestingToolkit", "Rehearsals",
    "WebSockets",
]
package.targets += [
    .target(
        name: "PlaygroundSupport",
        dependencies: ["BothamNetworking", "BothamNetworkingTesting"],
        path: "Playgrounds/Support"
    ),
    .target(
        name: "PlaygroundPages",
        dependencies: [
            "BothamNetworking", "BothamNetworkingNative", "BothamNetworkingTesting", "BothamNetworkingConformance",
            "PlaygroundSupport",
        ],
        path: "Playgrounds/Pages"
    ),
    .executableTarget(
        name: "Playgrounds", dependencies: ["PlaygroundPages", "PlaygroundSupport"], path: "Playgrounds/All"),
]
package.targets += playgroundPages.map { page in
    .executableTarget(name: page, dependencies: ["PlaygroundPages", "PlaygroundSupport"], path: "Playgrounds/\(page)")
}

// Fuzz targets (Fuzz/<Name>/), present only when BOTHAM_FUZZ=1 (scripts/fuzz.sh sets it), so that `swift build` and
// `swift test` never build them. They stay in this package, unlike the benchmarks (Benchmarks/Package.swift), because
// they check the parsers below the public API: ten of the fifteen call `package` declarations (URLEncoding,
// ContentRange, RetryAfter, SuggestedFilename, DebugText, the HTTP/1.1 request and response parsers' replay entry
// points, HTTP2ClientConnection), three import BothamHTTP2Wire and one BothamWebSocketWire, which are not products.
// Neither `package` access nor a target that is not a product reaches across SwiftPM packages, and the public API is
// not grown for a harness.
//
// Built by scripts/fuzz.sh, they are libFuzzer harnesses (`-sanitize=fuzzer` and `-DBOTHAM_LIBFUZZER`); in a plain
// build each one is a small program that replays the inputs named on its command line, e.g.
// `BOTHAM_FUZZ=1 swift run FuzzQueryEncoding Fuzz/Corpus/FuzzQueryEncoding`.
if Context.environment["BOTHAM_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzQueryEncoding", ["BothamNetworking"]),
        ("FuzzHeaderValidation", ["BothamNetworking"]),
        ("FuzzRequestParser", ["BothamNetworkingTesting"]),
        ("FuzzResponseDecoding", ["BothamNetworking"]),
        ("FuzzWWWAuthenticate", ["BothamNetworking"]),
        ("FuzzResponseParser", ["BothamNetworkingNative"]),
        ("FuzzServerSentEvents", ["BothamNetworking"]),
        ("FuzzContentDisposition", ["BothamNetworking"]),
        ("FuzzContentRange", ["BothamNetworking"]),
        ("FuzzRetryAfter", ["BothamNetworking"]),
        ("FuzzBodyRedaction", ["BothamNetworking"]),
        ("FuzzHPACKDecoder", ["BothamHTTP2Wire"]),
        ("FuzzHTTP2FrameDecoder", ["BothamHTTP2Wire"]),
        ("FuzzHTTP2Connection", ["BothamNetworkingNative", "BothamHTTP2Wire"]),
        ("FuzzWebSocketFrames", ["BothamWebSocketWire"]),
    ]
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["BothamNetworking", "CLibFuzzer"], path: "Fuzz/Support"),
    ]
    package.targets += fuzzTargets.map { fuzzer in
        .executableTarget(
            name: fuzzer.name, dependencies: fuzzer.dependencies + ["FuzzSupport"], path: "Fuzz/\(fuzzer.name)")
    }
}
