import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The documented registration of the shipped authenticators: one object appended once to `interceptors` (#34).
@Suite("An authenticator appended once to interceptors", .timeLimit(.minutes(1)))
struct OneRegistrationAuthenticationTests {
    let stub = StubHTTPClient()

    func client(_ authenticator: some HTTPInterceptor, maxRetries: Int = 3, clock: any HTTPClock = .system)
        -> BothamAPIClient
    {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(maxRetries: maxRetries, clock: clock))
        apiClient.interceptors.append(authenticator)
        return apiClient
    }

    /// 401 unless the request carries `Bearer <token>`.
    func acceptOnly(_ token: String) {
        stub.stub(with: .response(statusCode: 401, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#]))
        stub.stub(.header(.authorization, "Bearer \(token)"), with: .text("ok"))
    }

    @Test("A TokenAuthenticator appended once to interceptors attaches the current token")
    func tokenAttached() async throws {
        acceptOnly("t0k3n")
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0k3n"))) { _ in .init("unused") }

        let result = await client(authenticator).GET("/me")

        #expect(try result.get().statusCode == 200)
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Bearer t0k3n"])
        #expect(await authenticator.store.refreshCount == 0)
    }

    @Test("On a 401 it refreshes the token and sends the request once more, with the new token")
    func refreshedAndRetriedOnce() async throws {
        acceptOnly("new")
        let rejected = Recorder<TokenAuthenticator.Token?>()
        let authenticator = TokenAuthenticator(store: .init(token: .init("old"))) { token in
            rejected.append(token)
            return .init("new")
        }

        let result = await client(authenticator).GET("/me")

        #expect(try result.get().statusCode == 200)
        #expect(rejected.values == [.init("old")])
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Bearer old", "Bearer new"])
        #expect(await authenticator.store.token == .init("new"))
    }

    @Test("A second 401 after the refresh is passed on: the request is sent at most twice and refreshed once")
    func secondRejectionPassedOn() async {
        acceptOnly("never")
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0"))) { _ in .init("t1") }

        let result = await client(authenticator).GET("/me")

        #expect(result.statusCode == 401)
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Bearer t0", "Bearer t1"])
        #expect(await authenticator.store.refreshCount == 1)
    }

    @Test("The refresh limit holds: beyond it a 401 is passed on without a refresh, until the window slides")
    func refreshLimitHonoured() async {
        stub.stub(with: .response(statusCode: 401))
        let clock = VirtualClock()
        let counter = Lock(0)
        let authenticator = TokenAuthenticator(
            store: .init(token: .init("t0")), refreshLimit: .init(maxRefreshes: 2, window: .seconds(60))
        ) { _ in
            let next = counter.withLock { count in
                count += 1
                return count
            }
            return .init("t\(next)")
        }
        let apiClient = client(authenticator, clock: clock)

        for _ in 0..<5 {
            #expect(await apiClient.GET("/me").statusCode == 401)
        }

        #expect(await authenticator.store.refreshCount == 2)
        #expect(stub.receivedRequests.count == 2 * 2 + 3)
        await clock.advance(by: .seconds(61))
        _ = await apiClient.GET("/me")
        #expect(await authenticator.store.refreshCount == 3)
    }

    @Test("A request that opted out gets no token and its 401 does not refresh")
    func optOut() async throws {
        stub.stub(with: .response(statusCode: 401))
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0k3n"))) { _ in .init("x") }
        let apiClient = client(authenticator)

        let result = await apiClient.send(apiClient.request(.get, "/public").skippingTokenAuthentication())

        #expect(result.statusCode == 401)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.authorization] == nil && !sent.headers.contains("X-Botham-Skip-Authentication"))
        #expect(stub.receivedRequests.count == 1)
        #expect(await authenticator.store.refreshCount == 0)
    }

    @Test("BasicAuthentication appended once sends its credentials and answers a Basic challenge with its realm")
    func basicChallengeAnswered() async throws {
        stub.stub(with: .response(statusCode: 401, headers: [.wwwAuthenticate: #"Basic realm="GitHub""#]))
        let basicAuth = GitHubBasicAuthentication()

        let result = await client(basicAuth).GET("/user")

        #expect(result.statusCode == 401)
        #expect(basicAuth.realms.values == ["GitHub"])
        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == ["Basic dXNlcjpwYXNz"])
    }

    @Test("BasicAuthentication appended once keeps its credentials to the base endpoint's origin")
    func basicCredentialScope() async throws {
        stub.stub(with: .text("ok"))
        let apiClient = client(GitHubBasicAuthentication())

        _ = await apiClient.GET("https://uploads.example.net/file")

        #expect(stub.receivedRequests.map { $0.headers[.authorization] } == [nil])
    }
}
