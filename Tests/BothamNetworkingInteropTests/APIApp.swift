import BothamNetworking
import Foundation
import Testing

/// The interop tests against scripts/api_app.py (GitHub-style `Link` paging, a cursor, rate-limit headers, 429 and
/// 503 with `Retry-After`), one nested suite per topic; skipped unless `API_APP_URL` is set.
///
/// They run one at a time, like the httpbin suites, so that their waits on the server's real clock are measured on
/// a machine that is not busy with the rest of the suite.
@Suite("API app interop", .requiresAPIApp, .serialized, .timeLimit(.minutes(1)))
enum APIAppInteropTests {}

/// The API app the paging and rate-limit interop tests talk to, from `API_APP_URL` (see scripts/httpbin.sh).
enum APIApp {
    /// The server's URL, for example `http://127.0.0.1:53212`, or `nil` when the variable is not set.
    static let url: String? = {
        guard let value = ProcessInfo.processInfo.environment["API_APP_URL"], !value.isEmpty else { return nil }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }()

    /// Whether the tests can run.
    static var isConfigured: Bool { url != nil }

    /// A client for the app over a fresh transport of the suite's kind (`HTTPBIN_TRANSPORT`, see
    /// ``HTTPBin/transport(_:)``), with `configuration`.
    static func client(_ configuration: BothamAPIClient.Configuration = .init(maxRetries: 0)) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: url ?? "http://127.0.0.1:9", httpClient: HTTPBin.transport(), configuration: configuration)
    }

    /// A fresh id: the app keys every budget and counter by it, so no two tests share state.
    static func newID() -> String {
        UUID().uuidString
    }

    /// What the app received for `id`, oldest first (`/stats`).
    static func requests(for id: String) async throws -> [Received] {
        try await client().value(for: Endpoint<Stats>(.get, "/stats", parameters: ["id": .string(id)])).requests
    }

    /// One request the app received.
    struct Received: Decodable, Sendable {
        let method: String
        let path: String
        let query: String
        let status: Int
        let time: Double
        let idempotencyKey: String?

        enum CodingKeys: String, CodingKey {
            case method, path, query, status, time
            case idempotencyKey = "idempotency_key"
        }
    }

    /// The body of `/stats`.
    struct Stats: Decodable, Sendable {
        let requests: [Received]
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the suite, saying why, when `API_APP_URL` is not set.
    static var requiresAPIApp: Self {
        .enabled(
            if: APIApp.isConfigured,
            "API_APP_URL is not set: run `scripts/httpbin.sh start` and `API_APP_URL=$(scripts/httpbin.sh api-url) swift test`"
        )
    }
}
