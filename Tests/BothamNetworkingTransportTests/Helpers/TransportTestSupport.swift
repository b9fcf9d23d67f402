import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

/// The integration tests of both transports against `MockWebServer`, one nested suite per topic, every test run
/// once per ``TransportUnderTest``.
///
/// They run one at a time: the 20 MiB transfers saturate both cores (more so under ThreadSanitizer) and would
/// otherwise delay the timing assertions of the timeout and challenge tests by seconds.
@Suite("Transport integration", .serialized, .timeLimit(.minutes(1)))
enum TransportIntegrationTests {}

/// A transport the integration tests run against.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `URLSessionHTTPClient`, the default transport.
    case urlSession
    /// `NativeHTTPClient`, the epoll transport.
    case native
    /// `NativeHTTPClient` on two event loops (`Configuration.eventLoops`): its pool sharded across them, each call
    /// on the least busy loop (the tests call from the cooperative pool).
    case nativeTwoLoops = "native-2-loops"
    /// `NativeHTTPClient` over cleartext HTTP/2 with prior knowledge (`Configuration.httpVersion`), which
    /// `MockWebServer` serves on the same port: every stream of one shared connection.
    case nativeHTTP2 = "native-h2"

    var testDescription: String { rawValue }

    /// Whether this is `NativeHTTPClient`, on any number of loops.
    var isNative: Bool { self != .urlSession }

    /// A new `NativeHTTPClient` of this kind (one or two loops) with `configuration`'s other settings.
    func makeNative(_ configuration: NativeHTTPClient.Configuration = .init()) -> NativeHTTPClient {
        var configuration = configuration
        configuration.eventLoops = self == .nativeTwoLoops ? .count(2) : .one
        if self == .nativeHTTP2 { configuration.httpVersion = .http2PriorKnowledge }
        return NativeHTTPClient(configuration: configuration)
    }

    /// A new client of this kind with `limits` and `redirectPolicy`.
    func make(_ limits: TransportLimits = .init(), redirectPolicy: RedirectPolicy = .follow) -> any HTTPClient {
        switch self {
        case .urlSession:
            return URLSessionHTTPClient(configuration: .init(redirectPolicy: redirectPolicy, limits: limits))
        case .native, .nativeTwoLoops, .nativeHTTP2:
            var configuration = NativeHTTPClient.Configuration()
            configuration.redirectPolicy = redirectPolicy
            configuration.limits = limits
            return makeNative(configuration)
        }
    }
}

/// Helpers for the transport integration tests against `MockWebServer`.
enum TransportTest {
    /// A client for `server` over a fresh `transport`; every status is accepted and nothing is retried.
    static func client(
        _ transport: TransportUnderTest,
        _ server: MockWebServer,
        _ limits: TransportLimits = .init(),
        redirectPolicy: RedirectPolicy = .follow
    ) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: transport.make(limits, redirectPolicy: redirectPolicy),
            configuration: .init(maxRetries: 0, validation: .acceptAll)
        )
    }

    /// The network failure kind of `result`, or `nil` when it is something else.
    static func networkFailureKind(_ result: Result<HTTPResponse, APIClientError>) -> APIClientError.NetworkFailure
        .Kind?
    {
        guard case .failure(.networkError(let failure)) = result else { return nil }
        return failure.kind
    }

    /// Measures how long `body` takes.
    static func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try await body()
        return (value, ContinuousClock.now - start)
    }

    /// `count` bytes of a non-uniform pattern (a 251-byte block repeated, so that offsets matter), built with
    /// large appends: generating megabytes byte by byte in a debug build would hold a cooperative thread for seconds.
    static func pattern(count: Int) -> Data {
        let block = Data((0..<251).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        var data = Data(capacity: count + block.count)
        while data.count < count { data.append(block) }
        return data.prefix(count)
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The error, or `nil` for a response.
    var error: APIClientError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Whether this is the `.timeout` error.
    var isTimeout: Bool {
        if case .failure(.timeout) = self { return true }
        return false
    }

    /// Whether this is the `.cancelled` error.
    var isCancelled: Bool {
        if case .failure(.cancelled) = self { return true }
        return false
    }
}
