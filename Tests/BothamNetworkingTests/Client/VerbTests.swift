import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Each verb reaches the transport", .timeLimit(.minutes(1)))
struct VerbTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub) }

    init() {
        stub.stub(with: .text("ok"))
    }

    @Test("GET sends the method, the joined URL, the query and the headers")
    func getSendsEverything() async throws {
        let response = try await apiClient.GET("/issues", parameters: ["state": "open"], headers: ["X-A": "1"]).get()
        #expect(response.statusCode == 200)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.method == .get)
        #expect(sent.url?.absoluteString == "https://api.example.com/v1/issues?state=open")
        #expect(sent.headers["x-a"] == "1")
        #expect(sent.body == nil)
        #expect(response.request == sent)
    }

    @Test("POST, PUT, PATCH and DELETE send their method and body")
    func verbsWithBodies() async throws {
        _ = await apiClient.POST("/a", body: ["n": 1])
        _ = await apiClient.PUT("/b", body: ["n": 2])
        _ = await apiClient.PATCH("/c", body: ["n": 3])
        _ = await apiClient.DELETE("/d", body: ["n": 4])
        let sent = stub.receivedRequests
        #expect(sent.map(\.method) == [.post, .put, .patch, .delete])
        #expect(sent.map(\.path) == ["/a", "/b", "/c", "/d"])
        #expect(
            sent.map { $0.url?.absoluteString } == ["a", "b", "c", "d"].map { "https://api.example.com/v1/\($0)" })
        #expect(sent.map(\.bodyText) == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
    }

    @Test("HEAD and OPTIONS send their method without a body")
    func headAndOptions() async throws {
        _ = await apiClient.HEAD("/a")
        _ = await apiClient.OPTIONS("/b", parameters: ["x": "y"])
        let sent = stub.receivedRequests
        #expect(sent.map(\.method) == [.head, .options])
        #expect(sent.last?.url?.query == "x=y")
    }

    @Test("send(_:) sends any request, including a custom method")
    func sendCustomMethod() async throws {
        _ = await apiClient.send(apiClient.request("PURGE", "/cache"))
        #expect(stub.receivedRequests.first?.method.rawValue == "PURGE")
    }

    @Test("An invalid custom method is rejected and nothing is sent")
    func invalidMethodIsRejected() async {
        let result = await apiClient.send(apiClient.request("BAD METHOD", "/x"))
        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("Header injection is rejected before anything is sent")
    func headerInjectionIsRejected() async {
        let result = await apiClient.GET("/x", headers: ["X-Evil": "v\r\nInjected: 1"])
        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("A non-http base endpoint gives unsupportedURLScheme and nothing is sent")
    func unsupportedScheme() async {
        let client = BothamAPIClient(baseEndpoint: "ftp://files.example.com", httpClient: stub)
        let result = await client.GET("/x")
        guard case .failure(.unsupportedURLScheme("ftp")) = result else {
            Issue.record("expected unsupportedURLScheme, got \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("A malformed base endpoint is a typed error delivered as a result, never a crash")
    func malformedEndpoint() async {
        let client = BothamAPIClient(baseEndpoint: "not a url", httpClient: stub)
        let result = await client.GET("/x")
        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
    }

    @Test("Response headers are case-insensitive")
    func responseHeadersIgnoreCase() async throws {
        stub.stub(with: .response(headers: ["Content-Type": "application/json"]))
        let response = try await apiClient.GET("/x").get()
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["CONTENT-TYPE"] == "application/json")
    }
}
