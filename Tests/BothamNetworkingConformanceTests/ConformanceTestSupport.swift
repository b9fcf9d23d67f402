import BothamNetworking
import BothamNetworkingConformance
import BothamNetworkingNative
import BothamTestSupport
import Testing

/// The conformance suite on this package's transports and on deliberately broken ones, one test at a time: the
/// checks measure time, and two cores shared with parallel tests would blur them.
@Suite("Transport conformance", .serialized, .timeLimit(.minutes(1)))
enum ConformanceTests {}

/// A transport of this package the conformance suite runs against.
enum OwnTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `URLSessionHTTPClient`, the default transport.
    case urlSession
    /// `NativeHTTPClient`, the epoll transport.
    case native
    /// `NativeHTTPClient` on two event loops (`Configuration.eventLoops`), as the transport integration tests also
    /// run it: the checks replace integration tests, so they run on every configuration those did.
    case nativeTwoLoops = "native-2-loops"
    /// `NativeHTTPClient` over cleartext HTTP/2 with prior knowledge, which `MockWebServer` serves on the same port.
    case nativeHTTP2 = "native-h2"

    var testDescription: String { rawValue }

    /// A new client of this kind with `configuration`.
    func make(_ configuration: ConformanceClientConfiguration) -> any HTTPClient {
        switch self {
        case .urlSession:
            return URLSessionHTTPClient(
                configuration: .init(redirectPolicy: configuration.redirectPolicy, limits: configuration.limits))
        case .native, .nativeTwoLoops, .nativeHTTP2:
            var native = NativeHTTPClient.Configuration()
            native.redirectPolicy = configuration.redirectPolicy
            native.limits = configuration.limits
            native.eventLoops = self == .nativeTwoLoops ? .count(2) : .one
            if self == .nativeHTTP2 { native.httpVersion = .http2PriorKnowledge }
            return NativeHTTPClient(configuration: native)
        }
    }

    /// The checks this transport is documented not to pass, with the reason.
    var skipped: [String: String] {
        switch self {
        case .urlSession:
            var skipped = [
                ConformanceCheck.responseFieldOrder.id:
                    "URLSession hands response fields over as a dictionary, sorted by name"
            ]
            #if canImport(FoundationNetworking)
                for check in TransportConformance.checks(in: .webSockets) {
                    skipped[check.id] =
                        "FoundationNetworking's libcurl has no WebSockets: the transport refuses them with invalidRequest"
                }
            #endif
            return skipped
        case .native, .nativeTwoLoops, .nativeHTTP2:
            return [:]
        }
    }

    /// The suite for this transport, with the test run's time scale.
    var conformance: TransportConformance {
        TransportConformance(timeScale: conformanceTimeScale, skipping: skipped) { make($0) }
    }
}

/// The suite for `native` transports wrapped by `wrap`, with the test run's time scale.
func brokenConformance(
    _ wrap: @escaping @Sendable (ConformanceClientConfiguration) -> any HTTPClient
) -> TransportConformance {
    TransportConformance(timeScale: conformanceTimeScale, makeClient: wrap)
}

/// The test run's time scale, at least 1.5: this target runs its 300-odd checks beside the whole suite, and a loaded
/// 2-core machine has taken 1.607 s to end a stream whose bound is 1.6 s. 1.5 keeps every broken transport's delays
/// (seconds past each bound) far outside the widened bounds, so each still fails exactly its checks.
let conformanceTimeScale = max(1.5, TestTimeScale.factor)

/// The ids of the checks `report` failed, sorted.
func failedIDs(_ report: ConformanceReport) -> [String] {
    report.failed.map(\.check.id).sorted()
}
