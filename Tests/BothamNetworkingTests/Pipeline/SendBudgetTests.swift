import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("One call reaches the transport at most 1 + maxRetries times, whatever asks", .timeLimit(.minutes(1)))
struct SendBudgetTests {
    /// Calls `next` `times` times and returns the last response.
    struct Repeating: HTTPInterceptor {
        let times: Int
        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            var last: HTTPResponse?
            for _ in 0..<times { last = try await next(request) }
            return try #require(last)
        }
    }

    @Test("an onion interceptor that calls next ten times reaches the transport 1 + maxRetries times")
    func onionCannotBypass() async {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient, configuration: .init(maxRetries: 2))
        apiClient.interceptors.append(Repeating(times: 10))

        let result = await apiClient.GET("/loop")

        #expect(stubClient.receivedRequests.count == 3)
        guard case .failure(.retryLimitExceeded(let attempts, .success(let last))) = result else {
            Issue.record("expected retryLimitExceeded, got \(result)")
            return
        }
        #expect(attempts == 3)
        #expect(last.statusCode == 200)
    }

    @Test("sends an onion interceptor used are not given again to the retry loop")
    func sharedWithRetries() async {
        struct RetryAll: BothamResponseInterceptor {
            func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult { .retry }
        }
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient,
            configuration: .init(maxRetries: 3, clock: VirtualClock(sleeping: .advancesClock)))
        apiClient.interceptors.append(Repeating(times: 2))
        apiClient.responseInterceptors.append(RetryAll())

        _ = await apiClient.GET("/loop")

        #expect(stubClient.receivedRequests.count == 4)
    }

    @Test(
        "maxRetries of Int.max or a negative number neither crashes nor overflows", arguments: [Int.max, -5, Int.min])
    func extremeBudgets(maxRetries: Int) async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient,
            configuration: .init(maxRetries: maxRetries))

        let response = try await apiClient.GET("/").get()

        #expect(response.statusCode == 200)
        #expect(stubClient.receivedRequests.count == 1)
    }
}
