import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The shipped interceptors against a real loopback server and the URLSession transport.
///
/// 401 responses here carry no `WWW-Authenticate`: FoundationNetworking waits forever on a challenge nobody answers
/// until the transport's session delegate handles it.
@Suite("Interceptors against MockWebServer", .timeLimit(.minutes(1)))
struct InterceptorsMockWebServerTests {
    let clock = VirtualClock(sleeping: .advancesClock)

    func client(_ server: MockWebServer, maxRetries: Int = 3) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            configuration: .init(maxRetries: maxRetries, clock: clock)
        )
    }

    func get(_ apiClient: BothamAPIClient, _ path: String) async -> Result<HTTPResponse, APIClientError> {
        await apiClient.send(apiClient.request(.get, path).withTimeout(.seconds(5)))
    }

    @Test("RetryPolicy honours a real Retry-After, then backs off")
    func retry() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withStatus(503).withHeader("Retry-After", "2"))
        server.enqueue(MockResponse().withStatus(502))
        server.enqueue(MockResponse().withBody("ok"))
        let apiClient = client(server)
        apiClient.configuration.retrier = RetryPolicy(jitter: .none)

        let result = await get(apiClient, "/items")

        #expect(try result.get().statusCode == 200)
        #expect(String(decoding: try result.get().body, as: UTF8.self) == "ok")
        #expect(clock.sleeps == [.seconds(2), .seconds(1)])
        for _ in 0..<3 { #expect(try await server.takeRequest(timeout: .seconds(5)).path == "/items") }
    }

    @Test("TokenAuthenticator refreshes once for concurrent real 401s and retries with the new token")
    func tokenRefresh() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { request in
            request.header("Authorization") == "Bearer new"
                ? MockResponse().withJSONBody(#"{"ok":true}"#) : MockResponse().withStatus(401)
        }
        let refreshes = Recorder<TokenAuthenticator.Token?>()
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { rejected in
            refreshes.append(rejected)
            return TokenAuthenticator.Token("new")
        }
        let apiClient = client(server)
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        let results = await withTaskGroup(of: Result<HTTPResponse, APIClientError>.self) { group in
            for index in 0..<10 { group.addTask { await get(apiClient, "/items/\(index)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.allSatisfy { $0.statusCode == 200 })
        #expect(refreshes.values == [TokenAuthenticator.Token("old")])
    }

    @Test("Logging and metrics over a real round trip: secrets stay hidden, bytes are counted")
    func loggingAndMetrics() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("hello").withHeader("Set-Cookie", "id=SECRET-SET-COOKIE"))
        let lines = Recorder<String>()
        let reports = Recorder<MetricsInterceptor.Report>()
        let apiClient = client(server)
        apiClient.interceptors.append(
            LoggingInterceptor(detail: .body, sink: LoggingInterceptor.Sink { lines.append($1) }))
        apiClient.interceptors.append(MetricsInterceptor { reports.append($0) })

        let request = apiClient.request(
            .post,
            "/login",
            headers: [.authorization: "Bearer SECRET-TOKEN", .cookie: "s=SECRET-COOKIE"],
            body: .text("abc")
        )
        let result = await apiClient.send(request.withTimeout(.seconds(5)))

        #expect(try result.get().statusCode == 200)
        let recorded = try await server.takeRequest(timeout: .seconds(5))
        #expect(recorded.header("Authorization") == "Bearer SECRET-TOKEN")
        #expect(lines.values.count == 2)
        for line in lines.values {
            for secret in ["SECRET-TOKEN", "SECRET-COOKIE", "SECRET-SET-COOKIE"] { #expect(!line.contains(secret)) }
        }
        #expect(lines.values.last?.contains("<-- 200 POST") == true)
        let report = try #require(reports.values.first)
        #expect(report.bytesSent == 3)
        #expect(report.bytesReceived == 5)
        #expect(report.attempts == 1)
    }
}
