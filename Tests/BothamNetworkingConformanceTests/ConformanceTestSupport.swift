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

    var testDescription: String { rawValue }

    /// A new client of this kind with `configuration`.
    func make(_ configuration: ConformanceClientConfiguration) -> any HTTPClient {
        switch self {
        case .urlSession:
            return URLSessionHTTPClient(
                configuration: .init(redirectPolicy: configuration.redirectPolicy, limits: configuration.limits))
        case .native:
            var native = NativeHTTPClient.Configuration()
            native.redirectPolicy = configuration.redirectPolicy
            native.limits = configuration.limits
            return NativeHTTPClient(configuration: native)
        }
    }

    /// The checks this transport is documented not to pass, with the reason.
    var skipped: [ConformanceCheck: String] {
        switch self {
        case .urlSession:
            return [.responseFieldOrder: "URLSession hands response fields over as a dictionary, sorted by name"]
        case .native:
            return [:]
        }
    }

    /// The suite for this transport, with the test run's time scale.
    var conformance: TransportConformance {
        TransportConformance(timeScale: TestTimeScale.factor, skipping: skipped) { make($0) }
    }
}

/// The suite for `native` transports wrapped by `wrap`, with the test run's time scale.
func brokenConformance(
    _ wrap: @escaping @Sendable (ConformanceClientConfiguration) -> any HTTPClient
) -> TransportConformance {
    TransportConformance(timeScale: TestTimeScale.factor, makeClient: wrap)
}

/// The ids of the checks `report` failed, sorted.
func failedIDs(_ report: ConformanceReport) -> [String] {
    report.failed.map(\.check.id).sorted()
}
