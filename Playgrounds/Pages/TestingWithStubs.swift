import BothamNetworking
import BothamNetworkingTesting
import PlaygroundSupport

/// A per-service API client, as users write them.
struct IssuesClient {
    struct Issue: Decodable, Equatable {
        let number: Int
        let title: String
    }

    let apiClient: BothamAPIClient

    func openIssues() async throws(APIClientError) -> [Issue] {
        try await apiClient.GET("/issues", parameters: ["state": "open"]).decoded(as: [Issue].self).get()
    }
}

/// Unit-testing a per-service client with `StubHTTPClient`: no network, every interceptor still runs.
public enum TestingWithStubs: PlaygroundPage {
    /// The page's name.
    public static let name = "TestingWithStubs"
    /// What the page shows.
    public static let summary = "StubHTTPClient: stubs, recorded requests, virtual latency, fail-closed"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(
            .method(.get) && .path("/issues") && .query("state", "open"),
            with: StubResponse.json([["number": 1, "title": "Crash on launch"]]).delayed(by: .seconds(2))
        )
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.github.com/repos/Karumi/BothamNetworking", httpClient: stubClient)
        let issues = try await IssuesClient(apiClient: apiClient).openIssues()
        context.say("decoded: \(issues)")
        try context.check(issues == [IssuesClient.Issue(number: 1, title: "Crash on launch")], "the stub answered")
        try context.check(stubClient.virtualTimeElapsed == .seconds(2), "2 s of latency passed in virtual time")
        try context.check(stubClient.receivedRequests.count == 1, "the request was recorded for assertions")

        let unmatched = await apiClient.GET("/pulls")
        guard case .failure(.httpClientError(let underlying)) = unmatched else {
            throw PlaygroundFailure("an unmatched request must fail closed")
        }
        context.say("\(underlying)")
        try context.check(true, "an unmatched request fails closed, naming the request and the stubs")
    }
}
