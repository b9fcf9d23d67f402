import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// A user's per-service API client, as the documentation describes: it owns a `BothamAPIClient` and turns responses
/// into domain values.
struct GitHubIssuesClient {
    struct Issue: Decodable, Equatable, Sendable {
        let number: Int
        let title: String
    }

    let apiClient: BothamAPIClient

    init(httpClient: any HTTPClient = URLSessionHTTPClient()) {
        apiClient = BothamAPIClient(
            baseEndpoint: "https://api.github.com/repos/Karumi/BothamNetworking", httpClient: httpClient)
    }

    func openIssues() async throws(APIClientError) -> [Issue] {
        try await apiClient.GET("/issues", parameters: ["state": "open"]).decoded(as: [Issue].self).get()
    }
}

@Suite("Unit-testing a per-service API client with StubHTTPClient", .timeLimit(.minutes(1)))
struct PerServiceClientExampleTests {
    @Test("The client asks for open issues and decodes them")
    func decodesOpenIssues() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(.method(.get) && .path("/issues"), with: .json([["number": 1, "title": "Crash on launch"]]))
        let issues = try await GitHubIssuesClient(httpClient: stubClient).openIssues()
        #expect(issues == [GitHubIssuesClient.Issue(number: 1, title: "Crash on launch")])
        #expect(stubClient.receivedRequests.first?.parameters["state"] == "open")
    }

    @Test("The client reports a server error with its status code")
    func reportsServerErrors() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("rate limited", statusCode: 403))
        do {
            _ = try await GitHubIssuesClient(httpClient: stubClient).openIssues()
            Issue.record("expected an error")
        } catch {
            #expect(error.statusCode == 403)
        }
    }
}
