import BothamNetworking
import BothamNetworkingNative
import Foundation
import Testing

/// The interop tests against a live httpbin, one nested suite per topic; skipped unless `HTTPBIN_URL` is set.
///
/// They run one at a time so that their timing assertions (timeouts, prompt 401s, cancellation) do not depend on
/// how busy the machine's two cores are with the rest of the suite.
@Suite("httpbin interop", .requiresHTTPBin, .serialized, .timeLimit(.minutes(1)))
enum HTTPBinInteropTests {}

/// The httpbin server the interop tests talk to, from `HTTPBIN_URL` (see scripts/httpbin.sh).
enum HTTPBin {
    /// The server's URL, for example `http://127.0.0.1:53211`, or `nil` when the variable is not set.
    static let url: String? = {
        guard let value = ProcessInfo.processInfo.environment["HTTPBIN_URL"], !value.isEmpty else { return nil }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }()

    /// Whether the interop tests can run.
    static var isConfigured: Bool { url != nil }

    /// The same server under another origin: `localhost` instead of `127.0.0.1` (or the reverse).
    static var otherOrigin: String {
        let base = url ?? ""
        if base.contains("127.0.0.1") { return base.replacingOccurrences(of: "127.0.0.1", with: "localhost") }
        return base.replacingOccurrences(of: "localhost", with: "127.0.0.1")
    }

    /// The transport the suite runs on: `HTTPBIN_TRANSPORT=native` for `NativeHTTPClient`, otherwise
    /// `URLSessionHTTPClient` (`.ci/run` runs the suite once with each).
    static let runsOnNative = ProcessInfo.processInfo.environment["HTTPBIN_TRANSPORT"] == "native"

    /// A fresh transport of the suite's kind with `configuration`'s settings.
    static func transport(_ configuration: URLSessionHTTPClient.Configuration = .init()) -> any HTTPClient {
        guard runsOnNative else { return URLSessionHTTPClient(configuration: configuration) }
        var native = NativeHTTPClient.Configuration()
        native.redirectPolicy = configuration.redirectPolicy
        native.limits = configuration.limits
        return NativeHTTPClient(configuration: native)
    }

    /// A client for httpbin over a fresh transport (see ``transport(_:)``) that accepts every status.
    static func client(_ configuration: URLSessionHTTPClient.Configuration = .init()) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: url ?? "http://127.0.0.1:9",
            httpClient: transport(configuration),
            configuration: .init(validation: .acceptAll)
        )
    }

    /// `url` percent-encoded for a query value.
    static func queryValue(_ url: String) -> String {
        url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the suite, saying why, when `HTTPBIN_URL` is not set.
    static var requiresHTTPBin: Self {
        .enabled(
            if: HTTPBin.isConfigured,
            "HTTPBIN_URL is not set: run `scripts/httpbin.sh start` and `HTTPBIN_URL=$(scripts/httpbin.sh url) swift test`"
        )
    }
}

/// Measures how long `body` takes.
func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
}
