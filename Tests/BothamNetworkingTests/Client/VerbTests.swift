import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Each verb reaches the transport", .timeLimit(.minutes(1)))
struct VerbTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub) }

    @Test("GET sends the method, the joined URL and the query")
    func getSendsMethodURLAndQuery() async throws {
        stub.stub(with: .text("ok"))
        let result = await apiClient.GET("/issues", parameters: ["state": "open"])
        let response = try result.get()
        #expect(response.statusCode == 200)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.method == .get)
        #expect(sent.url?.absoluteString == "https://api.example.com/v1/issues?state=open")
    }
}
