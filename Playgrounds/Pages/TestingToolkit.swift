import BothamNetworking
import BothamNetworkingTesting
import Foundation
import PlaygroundSupport

/// Tags every request with where it came from: the interceptor the harness tests on its own.
struct RequestSource: BothamRequestInterceptor {
    let source: String

    func intercept(request: HTTPRequest) -> HTTPRequest {
        request.withHeader("X-Request-Source", source)
    }
}

/// The rest of the test kit: record once and replay, one interceptor on its own, a race made deterministic, and time
/// that moves only when the test says so.
public enum TestingToolkit: PlaygroundPage {
    /// The page's name.
    public static let name = "TestingToolkit"
    /// What the page shows.
    public static let summary = "record → replay, the interceptor harness, a gate for a race, the virtual clock"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        try await recordThenReplay(context)
        try await harness(context)
        try await gate(context)
        try await virtualClock(context)
    }

    /// Records an exchange with the embedded server into a temporary HAR file, then replays it with a transport
    /// behind the replayer that fails if it is ever called.
    private static func recordThenReplay(_ context: PlaygroundContext) async throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("botham-playground-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        // The echo answers with the request's headers in its body: name that field for the redactor too.
        let options = RecordingOptions(redactor: Redactor(bodyFieldNames: ["authorization"]))
        let headers: HTTPHeaders = ["Authorization": "Bearer s3cr3t"]

        let recorder = RecordingHTTPClient(.record, file: file, wrapping: URLSessionHTTPClient(), options: options)
        let recording = BothamAPIClient(baseEndpoint: context.servicesURL, httpClient: recorder)
        let live = try await recording.GET("/get", parameters: ["page": "2"], headers: headers).get().json()
        try context.check(live["args"]?["page"]?.stringValue == "2", "recorded: the embedded server answered")
        let written = try String(contentsOf: file, encoding: .utf8)
        try context.check(!written.contains("s3cr3t"), "the token is REDACTED in the file, request and response")

        let untouched = StubHTTPClient()  // no stubs: any request that reached it would fail
        let replayer = RecordingHTTPClient(.replay, file: file, wrapping: untouched, options: options)
        let replaying = BothamAPIClient(baseEndpoint: context.servicesURL, httpClient: replayer)
        let replayed = try await replaying.GET("/get", parameters: ["page": "2"], headers: headers).get().json()
        try context.check(replayed["args"]?["page"]?.stringValue == "2", "replayed: the same answer from the file")
        try context.check(untouched.receivedRequests.isEmpty, "replaying never touched the transport behind it")

        guard case .failure(.httpClientError(let underlying)) = await replaying.GET("/get", parameters: ["page": "3"])
        else { throw PlaygroundFailure("a request that was never recorded must fail closed") }
        context.say("\(underlying)")
        try context.check(underlying is RecordingError, "an unrecorded request fails with a diff, not the network")
    }

    /// One interceptor and one retrier, each on its own against a scripted `next`.
    private static func harness(_ context: PlaygroundContext) async throws {
        let harness = InterceptorHarness()
        let tagged = await harness.run(RequestSource(source: "playground"), on: harness.request(.get, "/me"))
        try context.check(
            try tagged.get().headers["X-Request-Source"] == "playground" && tagged.nextCallCount == 0,
            "the harness ran a request interceptor without building a client")

        harness.next.stub(with: .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        let policy = RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .seconds(1)), jitter: .none)
        let retried = await harness.run(policy, on: harness.request(.get, "/feed"), maxAttempts: 3)
        context.say("waits asked for: \(retried.retryDelays)")
        try context.check(
            retried.nextCallCount == 3 && retried.retryDelays == [.seconds(1), .seconds(2)],
            "a retrier's decisions and waits are reported; nothing slept")
        try context.check(try retried.get().statusCode == 200, "the third attempt got the 200")
    }

    /// Ten calls race to a 401; the gate holds them all, then lets them go together: one refresh, every time.
    private static func gate(_ context: PlaygroundContext) async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(.header(.authorization, "Bearer old"), with: .response(statusCode: 401))
        stubClient.stub(.header(.authorization, "Bearer new"), with: .text("ok"))
        let gate = stubClient.hold(.header(.authorization, "Bearer old"), next: 10)
        let store = TokenAuthenticator.Store(token: TokenAuthenticator.Token("old"))
        let authenticator = TokenAuthenticator(store: store) { _ in TokenAuthenticator.Token("new") }
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stubClient)
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<10 {
                group.addTask { try await apiClient.GET("/items/\(index)").get().statusCode }
            }
            try await gate.waitUntilHeld(10)
            try context.check(gate.heldCount == 10, "all ten sent the old token before any got its 401")
            gate.releaseAll()
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
        try context.check(statuses == Array(repeating: 200, count: 10), "every call succeeded with the new token")
        try context.check(await store.refreshCount == 1, "ten parallel 401s refreshed the token exactly once")
    }

    /// A `Retry-After: 120` waited out in no time: the clock moves only when the page advances it.
    private static func virtualClock(_ context: PlaygroundContext) async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .response(statusCode: 503, headers: ["Retry-After": "120"]), .text("ok"))
        let clock = VirtualClock()
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient,
            configuration: .init(retrier: RetryPolicy(retryAfterLimit: .seconds(300)), clock: clock))

        let started = ContinuousClock.now
        let call = Task { await apiClient.GET("/feed") }
        try await clock.waitForSleepers(1)
        try context.check(clock.sleeps == [.seconds(120)], "the call waits the 120 s the server asked for")
        await clock.advance(by: .seconds(120))
        try context.check(try await call.value.get().statusCode == 200, "after the advance, the retry got the 200")
        try context.check(
            ContinuousClock.now - started < .seconds(10) && clock.elapsed == .seconds(120),
            "120 virtual seconds passed; nothing slept for real")
    }
}
