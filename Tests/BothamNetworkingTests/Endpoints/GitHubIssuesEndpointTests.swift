import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("A GitHub issues client built from endpoints", .timeLimit(.minutes(1)))
struct GitHubIssuesEndpointTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.github.com", httpClient: stub) }

    let issueJSON: JSONValue = [
        "number": 42, "title": "Crash on launch", "state": "open", "labels": [["name": "bug"]],
        "created_at": "2024-01-02T03:04:05Z", "comments": 3,
    ]

    @Test("listing sends state and labels and decodes snake_case keys and ISO 8601 dates")
    func list() async throws {
        stub.stub(.method(.get) && .path("/repos/Karumi/BothamNetworking/issues"), with: .json([issueJSON]))
        let issues = try await apiClient.value(
            for: GitHubIssues.List(owner: "Karumi", repo: "BothamNetworking", state: .all, labels: ["bug", "ui"])
        )
        #expect(issues.map(\.number) == [42])
        #expect(issues.first?.labels == [GitHubIssue.Label(name: "bug")])
        #expect(issues.first?.createdAt == Date(timeIntervalSince1970: 1_704_164_645))
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.url?.query == "labels=bug%2Cui&state=all")
        #expect(sent.headers[.accept] == "application/vnd.github+json")
    }

    @Test("getting one issue uses its number in the path")
    func get() async throws {
        stub.stub(.path("/repos/Karumi/BothamNetworking/issues/42"), with: .json(issueJSON))
        let issue = try await apiClient.value(
            for: GitHubIssues.Get(owner: "Karumi", repo: "BothamNetworking", number: 42))
        #expect(issue.title == "Crash on launch")
    }

    @Test("creating an issue POSTs JSON and decodes the 201")
    func create() async throws {
        stub.stub(.method(.post), with: .json(issueJSON, statusCode: 201))
        let create = GitHubIssues.Create(
            owner: "Karumi",
            repo: "BothamNetworking",
            issue: .init(title: "Crash on launch", body: nil, labels: ["bug"])
        )
        let issue = try await apiClient.value(for: create)
        #expect(issue.number == 42)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.method == .post)
        let body = try #require(try sent.bodyData())
        #expect(JSONValue(jsonData: body) == ["labels": ["bug"], "title": "Crash on launch"])
    }
}

@Suite("GitHub issue listing without labels", .timeLimit(.minutes(1)))
struct GitHubIssuesListDefaultsTests {
    @Test("no labels sends only the state")
    func noLabels() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .json([]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com", httpClient: stub)
        let issues = try await apiClient.value(for: GitHubIssues.List(owner: "Karumi", repo: "BothamNetworking"))
        #expect(issues.isEmpty)
        #expect(stub.receivedRequests.first?.url?.query == "state=open")
    }
}
