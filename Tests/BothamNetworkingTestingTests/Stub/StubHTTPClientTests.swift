import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("StubHTTPClient", .timeLimit(.minutes(1)))
struct StubHTTPClientTests {
    @Test("An unmatched request fails closed with a message naming the request and the stubs")
    func unmatchedRequestFailsClosed() async throws {
        let stub = StubHTTPClient()
        stub.stub(.path("/users"), with: .text("users"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let result = await apiClient.GET("/issues")
        guard case .failure(.httpClientError(let underlying)) = result else {
            Issue.record("expected an httpClientError, got \(result)")
            return
        }
        let unmatched = try #require(underlying as? StubHTTPClient.UnmatchedRequest)
        #expect(unmatched.description.contains("https://api.example.com/issues"))
        #expect(unmatched.description.contains("path /users"))
    }
}
