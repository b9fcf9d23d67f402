import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// The integration tests of `URLSessionHTTPClient` against `MockWebServer`, one nested suite per topic.
///
/// They run one at a time: the 20 MiB transfers saturate both cores (more so under ThreadSanitizer) and would
/// otherwise delay the timing assertions of the timeout and challenge tests by seconds.
@Suite("URLSessionHTTPClient integration", .serialized, .timeLimit(.minutes(1)))
enum URLSessionIntegrationTests {}

/// Helpers for the `URLSessionHTTPClient` integration tests against `MockWebServer`.
enum TransportTest {
    /// A client for `server` over a fresh `URLSessionHTTPClient`; every status is accepted and nothing is retried.
    static func client(
        _ server: MockWebServer,
        _ configuration: URLSessionHTTPClient.Configuration = .init()
    ) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: URLSessionHTTPClient(configuration: configuration),
            configuration: .init(maxRetries: 0, validation: .acceptAll)
        )
    }

    /// The network failure kind of `result`, or `nil` when it is something else.
    static func networkFailureKind(_ result: Result<HTTPResponse, APIClientError>) -> NetworkFailure.Kind? {
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
