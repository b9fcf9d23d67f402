import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("StubHTTPClient", .timeLimit(.minutes(1)))
struct StubHTTPClientTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub) }

    @Test("An unmatched request fails closed with a message naming the request and the stubs")
    func unmatchedRequestFailsClosed() async throws {
        stub.stub(.path("/users"), with: .text("users"))
        let result = await apiClient.GET("/issues")
        guard case .failure(.httpClientError(let underlying)) = result else {
            Issue.record("expected an httpClientError, got \(result)")
            return
        }
        let unmatched = try #require(underlying as? StubHTTPClient.UnmatchedRequest)
        #expect(unmatched.description.contains("https://api.example.com/v1/issues"))
        #expect(unmatched.description.contains("path /users"))
    }

    @Test("Stubs match by method, path, query, header and body")
    func matchers() async throws {
        stub.stub(.method(.get) && .path("/issues") && .query("state", "open"), with: .text("open issues"))
        stub.stub(.method(.post) && .header("x-token", "t") && .jsonBody(["title": "Bug"]), with: .text("created"))
        stub.stub(.url("https://api.example.com/v1/exact?a=1"), with: .text("exact"))
        stub.stub(.body(Data([1, 2, 3])), with: .text("bytes"))

        #expect(
            try await apiClient.GET("/issues", parameters: ["state": "open"]).get().body == Data("open issues".utf8))
        #expect(
            try await apiClient.POST("/issues", headers: ["X-Token": "t"], body: ["title": "Bug"]).get().body
                == Data("created".utf8)
        )
        #expect(try await apiClient.GET("/exact", parameters: ["a": "1"]).get().body == Data("exact".utf8))
        #expect(try await apiClient.PUT("/b", body: .data(Data([1, 2, 3]))).get().body == Data("bytes".utf8))
        guard case .failure(.httpClientError) = await apiClient.GET("/issues", parameters: ["state": "closed"]) else {
            Issue.record("a different query value must not match")
            return
        }
    }

    @Test("The path matcher accepts the request's own path or the URL's full path")
    func pathMatcherForms() async throws {
        stub.stub(.path("/v1/full"), with: .text("full"))
        stub.stub(.path("/own"), with: .text("own"))
        #expect(try await apiClient.GET("/full").get().body == Data("full".utf8))
        #expect(try await apiClient.GET("/own?x=1").get().body == Data("own".utf8))
    }

    @Test("A stub's answers are served in order and the last one repeats")
    func fifoThenRepeatLast() async throws {
        stub.stub(with: .response(statusCode: 201), .response(statusCode: 202))
        let codes = [
            try await apiClient.GET("/x").get().statusCode,
            try await apiClient.GET("/x").get().statusCode,
            try await apiClient.GET("/x").get().statusCode,
        ]
        #expect(codes == [201, 202, 202])
    }

    @Test("An exhausted stub stops matching so an earlier stub answers")
    func exhaustionFallsThrough() async throws {
        stub.stub(with: .response(statusCode: 200))
        stub.stub(with: [.response(statusCode: 503)], then: .stop)
        guard case .failure(.httpResponseError(let first)) = await apiClient.GET("/x") else {
            Issue.record("the first call must be answered by the newer stub with 503")
            return
        }
        #expect(first.statusCode == 503)
        #expect(try await apiClient.GET("/x").get().statusCode == 200)
    }

    @Test("The most recently added matching stub wins")
    func latestStubWins() async throws {
        stub.stub(with: .text("default"))
        stub.stub(.path("/special"), with: .text("special"))
        #expect(try await apiClient.GET("/special").get().body == Data("special".utf8))
        #expect(try await apiClient.GET("/other").get().body == Data("default".utf8))
    }

    @Test("Transport errors are thrown as stubbed")
    func transportErrors() async throws {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))))
        guard case .failure(.networkError(let failure)) = await apiClient.GET("/x") else {
            Issue.record("expected a network error")
            return
        }
        #expect(failure.kind == .cannotConnect)
    }

    @Test("Latency is virtual by default: time advances without sleeping")
    func virtualLatency() async throws {
        stub.stub(with: StubResponse.text("slow").delayed(by: .seconds(3_600)))
        let start = ContinuousClock.now
        _ = try await apiClient.GET("/x").get()
        #expect(
            ContinuousClock.now - start < .seconds(30) + TestTimeScale.schedulingDelay(since: start),
            "an hour of virtual latency must not be slept")
        #expect(stub.virtualTimeElapsed == .seconds(3_600))
    }

    @Test("Latency longer than the request's timeout ends with timeout at once")
    func virtualTimeout() async throws {
        stub.stub(with: StubResponse.text("slow").delayed(by: .seconds(3_600)))
        let result = await apiClient.send(apiClient.request(.get, "/x").withTimeout(.seconds(2)))
        guard case .failure(.timeout) = result else {
            Issue.record("expected timeout, got \(result)")
            return
        }
        #expect(stub.virtualTimeElapsed == .seconds(2))
    }

    @Test("Real latency sleeps for at least the latency")
    func realLatency() async throws {
        let realStub = StubHTTPClient(latency: .clock)
        realStub.stub(with: StubResponse.text("slow").delayed(by: .milliseconds(50)))
        let client = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: realStub)
        let start = ContinuousClock.now
        _ = try await client.GET("/x").get()
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test("HEAD responses have no body")
    func headHasNoBody() async throws {
        stub.stub(with: .text("body"))
        #expect(try await apiClient.HEAD("/x").get().body.isEmpty)
    }

    @Test("Every received request is recorded, also from concurrent calls")
    func recordsConcurrentRequests() async throws {
        stub.stub(with: .text("ok"))
        let client = apiClient
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = await client.GET("/items/\(index)") }
            }
        }
        let paths = Set(stub.receivedRequests.map(\.path))
        #expect(paths == Set((0..<200).map { "/items/\($0)" }))
    }
}
