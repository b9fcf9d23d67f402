import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// A refresh failure compared by identity, so "the same error" means the same instance.
final class RefreshFailure: Error, Sendable {}

@Suite("TokenAuthenticator", .timeLimit(.minutes(1)))
struct TokenAuthenticatorTests {
    let stub = StubHTTPClient()
    let refreshes = Recorder<TokenAuthenticator.Token?>()

    func client(
        _ authenticator: TokenAuthenticator, maxRetries: Int = 3, clock: any HTTPClock = .system
    ) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(maxRetries: maxRetries, clock: clock)
        )
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)
        return apiClient
    }

    /// 401 unless the request carries `Bearer <token>`.
    func acceptOnly(_ token: String) {
        stub.stub(with: .response(statusCode: 401, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#]))
        stub.stub(.header(.authorization, "Bearer \(token)"), with: .text("ok"))
    }

    @Test("The current token is attached to every request")
    func attachesToken() async throws {
        acceptOnly("t0k3n")
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0k3n"))) { _ in
            TokenAuthenticator.Token("unused")
        }
        let result = await client(authenticator).GET("/me")
        #expect(try result.get().statusCode == 200)
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Bearer t0k3n"])
        #expect(await authenticator.store.refreshCount == 0)
    }

    @Test("50 concurrent calls that all get 401 cause exactly one refresh and all succeed")
    func singleFlightRefresh() async throws {
        acceptOnly("new")
        let gate = ArrivalGate(count: 50)
        let refreshes = self.refreshes
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { rejected in
            refreshes.append(rejected)
            await gate.wait()  // every call has its 401 before the refresh ends
            return TokenAuthenticator.Token("new")
        }
        let apiClient = client(authenticator)
        apiClient.interceptors.append(ArrivalInterceptor(gate: gate))

        let results = await withTaskGroup(of: Result<HTTPResponse, APIClientError>.self) { group in
            for index in 0..<50 { group.addTask { await apiClient.GET("/items/\(index)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 50)
        #expect(results.allSatisfy { $0.statusCode == 200 })
        #expect(refreshes.values == [TokenAuthenticator.Token("old")])
        #expect(await authenticator.store.token == TokenAuthenticator.Token("new"))
        #expect(stub.receivedRequests.count == 100)
    }

    @Test("When the refresh fails, all 50 waiting calls fail with that same error")
    func refreshFailureFailsEveryWaiter() async {
        acceptOnly("never")
        let failure = RefreshFailure()
        let gate = ArrivalGate(count: 50)
        let refreshes = self.refreshes
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { rejected in
            refreshes.append(rejected)
            await gate.wait()
            throw failure
        }
        let apiClient = client(authenticator)
        apiClient.interceptors.append(ArrivalInterceptor(gate: gate))

        let results = await withTaskGroup(of: Result<HTTPResponse, APIClientError>.self) { group in
            for index in 0..<50 { group.addTask { await apiClient.GET("/items/\(index)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 50)
        for result in results {
            guard case .interceptorError(let underlying) = result.error else {
                Issue.record("expected the refresh error, got \(result)")
                continue
            }
            #expect((underlying as? RefreshFailure) === failure)
        }
        #expect(refreshes.values.count == 1)
        #expect(stub.receivedRequests.count == 50)
    }

    @Test("A stale 401 for a token that was already replaced retries with the new token without refreshing")
    func stale401DoesNotRefresh() async throws {
        let refreshes = self.refreshes
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { rejected in
            refreshes.append(rejected)
            return TokenAuthenticator.Token("new")
        }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")
        let first = HTTPCallContext(callID: 9_001, attempt: 1, maxAttempts: 4)
        let second = HTTPCallContext(callID: 9_002, attempt: 1, maxAttempts: 4)
        let unauthorized = { (sent: HTTPRequest) in HTTPResponse(statusCode: 401, request: sent) }

        let sentFirst = try await HTTPCallContext.$current.withValue(first) {
            try await authenticator.intercept(request: request)
        }
        let sentSecond = try await HTTPCallContext.$current.withValue(second) {
            try await authenticator.intercept(request: request)
        }
        #expect(sentFirst.headers[.authorization] == "Bearer old")
        #expect(sentSecond.headers[.authorization] == "Bearer old")

        let firstDecision = try await HTTPCallContext.$current.withValue(first) {
            try await authenticator.intercept(response: unauthorized(sentFirst), for: sentFirst)
        }
        let secondDecision = try await HTTPCallContext.$current.withValue(second) {
            try await authenticator.intercept(response: unauthorized(sentSecond), for: sentSecond)
        }
        guard case .retry = firstDecision, case .retry = secondDecision else {
            Issue.record("both calls should be retried: \(firstDecision), \(secondDecision)")
            return
        }
        #expect(refreshes.values == [TokenAuthenticator.Token("old")])

        let retried = try await HTTPCallContext.$current.withValue(second.nextAttemptForTest()) {
            try await authenticator.intercept(request: request)
        }
        #expect(retried.headers[.authorization] == "Bearer new")
    }

    @Test("A call is retried once: a second 401 with the fresh token is passed on")
    func retriedOnce() async {
        stub.stub(with: .response(statusCode: 401))
        let counter = Lock(0)
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0"))) { _ in
            let next = counter.withLock { count in
                count += 1
                return count
            }
            return TokenAuthenticator.Token("t\(next)")
        }
        let result = await client(authenticator).GET("/me")
        guard case .httpResponseError(let response) = result.error else {
            Issue.record("expected the 401 to pass through, got \(result)")
            return
        }
        #expect(response.statusCode == 401)
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Bearer t0", "Bearer t1"])
        #expect(await authenticator.store.refreshCount == 1)
    }

    @Test("The refresh limit stops a server that always answers 401, and the window slides with the client's clock")
    func refreshLimit() async {
        stub.stub(with: .response(statusCode: 401))
        let clock = VirtualClock()
        let counter = Lock(0)
        let authenticator = TokenAuthenticator(
            store: .init(token: .init("t0")),
            refreshLimit: TokenAuthenticator.RefreshLimit(maxRefreshes: 3, window: .seconds(60)),
            refresh: { _ in
                let next = counter.withLock { count in
                    count += 1
                    return count
                }
                return TokenAuthenticator.Token("t\(next)")
            }
        )
        let apiClient = client(authenticator, clock: clock)
        for _ in 0..<10 {
            let result = await apiClient.GET("/me")
            #expect(result.statusCode == 401)
        }
        #expect(await authenticator.store.refreshCount == 3)
        #expect(stub.receivedRequests.count == 3 * 2 + 7)

        await clock.advance(by: .seconds(59))
        _ = await apiClient.GET("/me")
        #expect(await authenticator.store.refreshCount == 3, "the window has not slid yet")
        await clock.advance(by: .seconds(2))
        _ = await apiClient.GET("/me")
        #expect(await authenticator.store.refreshCount == 4)
    }

    @Test("A request can opt out: no token, the marker is stripped and a 401 does not refresh")
    func optOut() async throws {
        stub.stub(with: .response(statusCode: 401))
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0k3n"))) { _ in TokenAuthenticator.Token("x")
        }
        let apiClient = client(authenticator)
        let result = await apiClient.send(apiClient.request(.get, "/public").skippingTokenAuthentication())
        #expect(result.statusCode == 401)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.authorization] == nil)
        #expect(!sent.headers.contains(TokenAuthenticator.skipAuthenticationHeader))
        #expect(stub.receivedRequests.count == 1)
        #expect(await authenticator.store.refreshCount == 0)
    }

    @Test("Calls made inside the refresh closure skip the authenticator instead of recursing")
    func refreshDoesNotRecurse() async throws {
        acceptOnly("new")
        stub.stub(.path("/oauth/token"), with: .response(statusCode: 401))
        let box = Lock<BothamAPIClient?>(nil)
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { _ in
            let apiClient = try #require(box.withLock { $0 })
            _ = await apiClient.POST("/oauth/token", body: ["grant_type": "refresh_token"])
            return TokenAuthenticator.Token("new")
        }
        let apiClient = client(authenticator)
        box.withLock { $0 = apiClient }

        let result = await apiClient.GET("/me")

        #expect(result.statusCode == 200)
        let tokenCalls = stub.receivedRequests.filter { $0.path == "/oauth/token" }
        #expect(tokenCalls.count == 1)
        #expect(tokenCalls.first?.headers[.authorization] == nil)
        #expect(await authenticator.store.refreshCount == 1)
    }

    @Test("Without a token the first 401 fetches one")
    func noInitialToken() async throws {
        acceptOnly("first")
        let authenticator = TokenAuthenticator { rejected in
            #expect(rejected == nil)
            return TokenAuthenticator.Token("first")
        }
        let result = await client(authenticator).GET("/me")
        #expect(try result.get().statusCode == 200)
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == [nil, "Bearer first"])
    }

    @Test("A call cancelled while waiting for the refresh ends at once; the refresh still serves the others")
    func cancelledWaiter() async throws {
        acceptOnly("new")
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let release = ArrivalGate(count: 1)
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { _ in
            startedContinuation.yield()
            await release.wait()
            return TokenAuthenticator.Token("new")
        }
        let apiClient = client(authenticator)

        let cancelled = Task { await apiClient.GET("/a") }
        for await _ in started { break }
        cancelled.cancel()
        let result = await awaitingCancellably(cancelled)
        guard case .cancelled = result.error else {
            Issue.record("expected cancelled, got \(result)")
            return
        }

        let other = Task { await apiClient.GET("/b") }
        await release.arrive()
        #expect(await awaitingCancellably(other).statusCode == 200)
        #expect(await authenticator.store.refreshCount == 1)
    }

    @Test("Tokens never print their value")
    func tokenDescription() {
        #expect(!"\(TokenAuthenticator.Token("s3cr3t"))".contains("s3cr3t"))
    }
}

extension HTTPCallContext {
    fileprivate func nextAttemptForTest() -> HTTPCallContext {
        HTTPCallContext(callID: callID, attempt: attempt + 1, maxAttempts: maxAttempts, startedAt: startedAt)
    }
}
