import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

private struct TokenResponse: Decodable {
    let accessToken: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
    }
}

private final class UserBasicAuthentication: BasicAuthentication {
    let credentials = BasicAuthCredentials(username: "user", password: "pass")

    func onAuthenticationError(realm: String) {
        print("GitHub rejected the credentials for \(realm)")
    }
}

/// Every interceptor we ship, configured as the README shows, on one client at once.
@Suite("The shipped interceptors on one client", .timeLimit(.minutes(1)))
struct InterceptorStackTests {
    @Test("Retry, basic and token authentication, headers, validation, logging, metrics and cURL work together")
    func everyInterceptorTogether() async throws {
        let stub = StubHTTPClient()
        stub.stub(.path("/oauth/token"), with: .json(["access_token": "fresh"]))
        stub.stub(.path("/user"), with: .response(statusCode: 401))
        stub.stub(.path("/user") && .header(.authorization, "Bearer fresh"), with: .json(["login": "jane"]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)

        // Retry
        apiClient.configuration.retrier = RetryPolicy()
        apiClient.configuration.maxRetries = 2
        var policy = RetryPolicy(
            backoff: RetryPolicy.Backoff(baseDelay: .milliseconds(200), multiplier: 2, maxDelay: .seconds(10)),
            jitter: .equal
        )
        policy.retryableStatusCodes.insert(409)
        policy.retriesNonIdempotentMethods = true  // only for endpoints that are safe to repeat
        apiClient.configuration.retrier = policy

        // Basic authentication
        let basicAuth = UserBasicAuthentication()
        #expect(try await basicAuth.intercept(request: apiClient.request(.get, "/")).headers[.authorization] != nil)

        // Token authentication
        let authenticator = TokenAuthenticator(store: .init(token: .init("saved"))) { _ in
            let refresh = apiClient.request(
                .post,
                "/oauth/token",
                body: .form(["grant_type": "refresh_token", "refresh_token": "r3fr3sh"])
            )
            let response = try await apiClient.response(for: refresh)
            return TokenAuthenticator.Token(try response.decoded(as: TokenResponse.self).accessToken)
        }
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        // Headers and validation
        apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
        apiClient.requestInterceptors.append(DefaultHeadersInterceptor())
        apiClient.responseInterceptors.append(
            ValidationInterceptor(acceptableStatusCodes: [200...299], acceptableContentTypes: ["application/json"])
        )

        // Logging (and forwarding to your own logger)
        let lines = Recorder<String>()
        let sink = LoggingInterceptor.Sink { level, message in
            if level >= .info { lines.append(message) }
        }
        apiClient.interceptors.append(
            LoggingInterceptor(
                detail: .headers,
                sink: sink,
                redactor: Redactor(headerNames: ["X-Api-Key"], queryParameterNames: ["api_key"])
            )
        )

        // Metrics
        let reports = Recorder<MetricsInterceptor.Report>()
        apiClient.interceptors.append(
            MetricsInterceptor { report in
                reports.append(report)
                print("\(report.method) \(report.url): \(report.statusCode ?? 0), \(report.attempts) attempt(s)")
            })

        let user = try await apiClient.GET("/user").get().json()
        #expect(user["login"] == "jane")
        let tokenCall = try #require(stub.receivedRequests.first { $0.path == "/oauth/token" })
        #expect(tokenCall.headers[.contentType] == "application/x-www-form-urlencoded")

        // cURL
        let request = apiClient.request(.post, "/notes", headers: ["X-Tenant": "k3y"], body: ["text": "it's"])
        print(request.cURLDescription())
        #expect(request.cURLDescription().contains(#"--data-binary '{"text":"it'\''s"}'"#))
        #expect(request.cURLDescription().contains("k3y"))  // X-Tenant is only hidden when named
        #expect(!request.cURLDescription(redactor: Redactor(headerNames: ["X-Tenant"])).contains("k3y"))

        #expect(lines.values.contains { $0.contains("Authorization: REDACTED") })
        #expect(reports.values.map(\.attempts) == [1, 2])  // the token call, then /user retried once
    }
}
