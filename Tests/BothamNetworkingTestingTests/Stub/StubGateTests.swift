import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("StubHTTPClient gates", .timeLimit(.minutes(1)))
struct StubGateTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    @Test("Ten parallel 401s refresh the token exactly once, and every call succeeds with the new token")
    func tenParallel401sRefreshOnce() async throws {
        stub.stub(.header(.authorization, "Bearer old"), with: .response(statusCode: 401))
        stub.stub(.header(.authorization, "Bearer new"), with: .text("ok"))
        let gate = stub.hold(.header(.authorization, "Bearer old"), next: 10)
        let refreshes = Counter()
        let store = TokenAuthenticator.Store(token: TokenAuthenticator.Token("old"))
        let authenticator = TokenAuthenticator(store: store) { rejected in
            refreshes.increment()
            #expect(rejected == TokenAuthenticator.Token("old"))
            return TokenAuthenticator.Token("new")
        }
        let apiClient = apiClient
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            for index in 0..<10 {
                group.addTask { try await apiClient.GET("/items/\(index)").get() }
            }
            // Every call has sent its request with the old token before any of them gets its 401.
            try await gate.waitUntilHeld(10)
            #expect(refreshes.value == 0)
            gate.releaseAll()
            var statuses: [Int] = []
            for try await response in group { statuses.append(response.statusCode) }
            #expect(statuses == Array(repeating: 200, count: 10))
        }

        #expect(refreshes.value == 1)
        #expect(await store.refreshCount == 1)
        let tokens = stub.receivedRequests.map { $0.headers[.authorization] ?? "" }
        #expect(tokens.filter { $0 == "Bearer old" }.count == 10)
        #expect(tokens.filter { $0 == "Bearer new" }.count == 10)
        #expect(gate.capturedCount == 10 && gate.heldCount == 0)
    }

    @Test("releaseOne lets the longest-held request go first; answers are served in release order")
    func releaseOneInOrder() async throws {
        stub.stub(with: .text("first"), .text("second"))
        let gate = stub.hold(next: 2)
        let apiClient = apiClient
        let a = Task { try await apiClient.GET("/a").get() }
        try await gate.waitUntilHeld(1)
        let b = Task { try await apiClient.GET("/b").get() }
        try await gate.waitUntilHeld(2)

        #expect(gate.releaseOne())
        #expect(try await awaitingCancellably(a).body == Data("first".utf8))
        #expect(gate.heldCount == 1)
        #expect(gate.releaseOne())
        #expect(try await awaitingCancellably(b).body == Data("second".utf8))
        #expect(!gate.releaseOne(), "nothing is held any more")
    }

    @Test("Requests beyond the gate's capacity, and those it does not match, pass at once")
    func capacityAndMatching() async throws {
        stub.stub(with: .text("ok"))
        let gate = stub.hold(.path("/held"), next: 1)
        let apiClient = apiClient
        let held = Task { try await apiClient.GET("/held").get() }
        try await gate.waitUntilHeld()
        #expect(try await apiClient.GET("/other").get().statusCode == 200)
        #expect(try await apiClient.GET("/held").get().statusCode == 200, "the gate is full")
        #expect(gate.heldCount == 1)
        gate.releaseAll()
        #expect(try await awaitingCancellably(held).statusCode == 200)
    }

    @Test("Waiting for more requests than arrive ends with a bounded Timeout")
    func waitTimesOut() async throws {
        let gate = stub.hold(next: 3)
        let timeout = await #expect(throws: StubGate.Timeout.self) {
            try await gate.waitUntilHeld(2, timeout: .milliseconds(20))
        }
        #expect(timeout?.expected == 2 && timeout?.held == 0)
    }

    @Test("A held request whose task is cancelled ends with cancelled")
    func heldRequestCancelled() async throws {
        stub.stub(with: .text("ok"))
        let gate = stub.hold(next: 1)
        let apiClient = apiClient
        let call = Task { await apiClient.GET("/slow") }
        try await gate.waitUntilHeld()
        call.cancel()
        guard case .failure(.cancelled) = await awaitingCancellably(call) else {
            Issue.record("a cancelled held request must end with cancelled")
            return
        }
        #expect(gate.heldCount == 0)
    }
}
