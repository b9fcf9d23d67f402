import BothamNetworking
import PlaygroundSupport

/// Retries a request while the server answers 503, as Botham's README retry interceptor did for 401.
final class RetryInterceptor: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
        if response.statusCode == 503 {
            return .retry
        } else {
            return .proceed(response)
        }
    }
}

/// `.retry` within a budget; exhaustion is a typed error.
public enum Retry: PlaygroundPage {
    /// The page's name.
    public static let name = "Retry"
    /// What the page shows.
    public static let summary = "a response interceptor returns .retry; the per-call budget bounds it"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.servicesURL)
        apiClient.responseInterceptors.append(RetryInterceptor())

        let recovered = try await apiClient.GET("/flaky/page-retry", parameters: ["failures": "2"]).get().json()
        try context.check(recovered["attempt"] == 3, "two 503s, then success on the third attempt")

        apiClient.configuration.maxRetries = 2
        let exhausted = await apiClient.GET("/status/503")
        guard case .failure(.retryLimitExceeded(let attempts, .success(let last))) = exhausted else {
            throw PlaygroundFailure("an endpoint that always fails must exhaust the budget")
        }
        try context.check(
            attempts == 3 && last.statusCode == 503,
            "an endpoint that always answers 503 ends with retryLimitExceeded after \(attempts) attempts"
        )
    }
}
