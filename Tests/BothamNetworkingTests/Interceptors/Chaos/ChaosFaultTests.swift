import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite(
    "ChaosInterceptor: each fault ends a call through BothamAPIClient with its documented outcome",
    .timeLimit(.minutes(1)))
struct ChaosFaultTests {
    let stubClient = StubHTTPClient()
    /// The calls' clock: every sleep moves it at once and is recorded in `clock.sleeps`.
    let clock = VirtualClock(sleeping: .advancesClock)

    init() {
        stubClient.stub(with: .text("hello world"))
    }

    func client(_ schedule: ChaosInterceptor.Schedule, configuration: BothamAPIClient.Configuration = .init())
        -> BothamAPIClient
    {
        var configuration = configuration
        configuration.clock = clock
        return ChaosTest.client(ChaosInterceptor(schedule), stubClient, configuration: configuration)
    }

    @Test(
        "fail(kind) is networkError of that kind, carrying ChaosInterceptor.Fault, and nothing is sent",
        arguments: [
            APIClientError.NetworkFailure.Kind.cannotConnect, .connectionLost, .badServerResponse, .cannotFindHost,
            .notConnected,
            .secureConnectionFailed,
        ])
    func fail(kind: APIClientError.NetworkFailure.Kind) async {
        let result = await client(.script([.fail(kind)])).GET("/feed")

        let failure = ChaosTest.networkFailure(result)
        #expect(failure?.kind == kind)
        #expect(ChaosTest.injectedFault(failure) == .fail(kind))
        #expect(stubClient.receivedRequests.isEmpty)
    }

    @Test("status(503) is a 503 response without a body; validation rejects it and nothing is sent")
    func status() async {
        let result = await client(.script([.status(503)])).GET("/feed")

        guard case .failure(.httpResponseError(let response)) = result else {
            Issue.record("expected httpResponseError, got \(result)")
            return
        }
        #expect(response.statusCode == 503)
        #expect(response.body.isEmpty)
        #expect(stubClient.receivedRequests.isEmpty)
    }

    @Test("delay waits on the call's clock, then sends the request")
    func delay() async throws {
        let response = try await client(.script([.delay(.seconds(2))])).GET("/feed").get()

        #expect(response.body == Data("hello world".utf8))
        #expect(clock.sleeps == [.seconds(2)])
        #expect(stubClient.receivedRequests.count == 1)
    }

    @Test("a delay that reaches the request's timeout waits the timeout and ends with .timeout, nothing sent")
    func delayPastTimeout() async {
        let apiClient = client(.script([.delay(.seconds(5))]))
        let result = await apiClient.send(apiClient.request(.get, "/feed").withTimeout(.seconds(1)))

        #expect(ChaosTest.isTimeout(result))
        #expect(clock.sleeps == [.seconds(1)])
        #expect(stubClient.receivedRequests.isEmpty)
    }

    @Test("a delay shorter than the request's timeout only delays")
    func delayWithinTimeout() async throws {
        let apiClient = client(.script([.delay(.milliseconds(500))]))
        let response = try await apiClient.send(apiClient.request(.get, "/feed").withTimeout(.seconds(1))).get()

        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.milliseconds(500)])
    }

    @Test("a delay waits on the clock the retry loop waits on: the client's clock records both")
    func sameClockAsRetries() async throws {
        stubClient.stub(with: .response(statusCode: 503), .text("ok"))
        let apiClient = ChaosTest.client(
            ChaosInterceptor(.script([.delay(.seconds(3))])), stubClient,
            configuration: .init(
                maxRetries: 1,
                retrier: RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .seconds(1)), jitter: .none),
                clock: clock))

        #expect(try await apiClient.GET("/feed").get().body == Data("ok".utf8))
        #expect(clock.sleeps == [.seconds(3), .seconds(1)])  // the chaos delay, then the retry's backoff
    }

    @Test("cancelling the call during a delay ends it with .cancelled at once")
    func cancelDuringDelay() async throws {
        let waiting = VirtualClock()  // sleeps until advanced, which this test never does
        let apiClient = ChaosTest.client(
            ChaosInterceptor(.script([.delay(.seconds(600))])), stubClient, configuration: .init(clock: waiting))

        let call = Task { await apiClient.GET("/feed") }
        try await waiting.waitForSleepers(1, timeout: .seconds(10))
        call.cancel()
        let (result, duration) = await ChaosTest.elapsed { await awaitingCancellably(call) }

        #expect(ChaosTest.isCancelled(result))
        #expect(duration < .seconds(10) + TestTimeScale.schedulingDelay(since: ContinuousClock.now - duration))
        #expect(stubClient.receivedRequests.isEmpty)
    }

    @Test("truncateBody sends the request, then fails with connectionLost like a dropped connection")
    func truncate() async {
        let result = await client(.script([.truncateBody])).GET("/feed")

        let failure = ChaosTest.networkFailure(result)
        #expect(failure?.kind == .connectionLost)
        #expect(ChaosTest.injectedFault(failure) == .truncateBody)
        #expect(stubClient.receivedRequests.count == 1)
    }

    @Test("a truncated body is retried as a real connectionLost is: the retry gets the whole body")
    func truncateRetried() async throws {
        let apiClient = client(
            .script([.truncateBody]),
            configuration: .init(maxRetries: 1, retrier: RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .zero))))

        #expect(try await apiClient.GET("/feed").get().body == Data("hello world".utf8))
        #expect(stubClient.receivedRequests.count == 2)
    }

    @Test("a response without a body is complete: truncateBody leaves it alone")
    func truncateEmpty() async throws {
        stubClient.stub(with: .response(statusCode: 204))
        let response = try await client(.script([.truncateBody])).GET("/feed").get()
        #expect(response.statusCode == 204)
    }

    @Test("a streamed body is cut at half its Content-Length, then ends with connectionLost")
    func truncateStream() async throws {
        stubClient.stub(
            with: .streamed(
                headers: ["Content-Length": "10"], chunks: [StubChunk("hello"), StubChunk("world")]))
        let streamed = try await client(.script([.truncateBody])).stream(.get, "/feed")

        let (received, error) = await streamed.body.readToEnd()

        #expect(received == Data("hello".utf8))
        guard case .networkError(let failure) = error else {
            Issue.record("expected networkError, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost)
        #expect(ChaosTest.injectedFault(failure) == .truncateBody)
    }

    @Test("a streamed body without a length is cut half-way through its first chunk")
    func truncateStreamWithoutLength() async throws {
        stubClient.stub(with: .streamed(chunks: [StubChunk("abcdef"), StubChunk("gh")]))
        let streamed = try await client(.script([.truncateBody])).stream(.get, "/feed")

        let (received, error) = await streamed.body.readToEnd()

        #expect(received == Data("abc".utf8))
        guard case .networkError(let failure) = error else {
            Issue.record("expected networkError, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost)
    }

    @Test("the interceptor also works in the onion, once per attempt")
    func inTheOnion() async {
        let apiClient = BothamAPIClient(baseEndpoint: "https://staging.example.com", httpClient: stubClient)
        apiClient.interceptors.append(ChaosInterceptor(.script([.fail(.cannotConnect)])))

        #expect(ChaosTest.networkFailure(await apiClient.GET("/feed"))?.kind == .cannotConnect)
        #expect(ChaosTest.statusCode(await apiClient.GET("/feed")) == 200)
    }

    @Test("the matcher scopes the faults: only matching requests get them")
    func matcherScope() async throws {
        let apiClient = client(.script([.fail(.connectionLost)], repeating: true))
        let scoped = ChaosTest.client(
            ChaosInterceptor(
                .script([.fail(.connectionLost)], repeating: true),
                matching: (RequestMatcher.method(.get) && RequestMatcher.path("/feed")).matches),
            stubClient)

        #expect(ChaosTest.networkFailure(await apiClient.GET("/profile"))?.kind == .connectionLost)
        #expect(ChaosTest.networkFailure(await scoped.GET("/feed"))?.kind == .connectionLost)
        #expect(try await scoped.GET("/profile").get().statusCode == 200)
        #expect(try await scoped.POST("/feed").get().statusCode == 200)
        #expect(ChaosTest.networkFailure(await scoped.GET("/feed"))?.kind == .connectionLost)
    }

}
