import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RateLimitInterceptor", .timeLimit(.minutes(1)))
struct RateLimitInterceptorTests {
    typealias Wait = RateLimitInterceptor.Wait

    /// A response form and the wait it imposes on the next call.
    struct Form: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: HTTPHeaders
        let wait: Duration
        var testDescription: String { name }
    }

    static let forms = [
        Form(
            name: "draft-08 RateLimit with its policy",
            headers: ["RateLimit": "\"default\";r=0;t=30", "RateLimit-Policy": "\"default\";q=100;w=60"],
            wait: .seconds(30)),
        Form(
            name: "draft-08 RateLimit without t: the policy's window",
            headers: ["RateLimit": "\"default\";r=0", "RateLimit-Policy": "\"default\";q=100;w=60"],
            wait: .seconds(60)),
        Form(
            name: "draft-08 several policies: the most restrictive",
            headers: ["RateLimit": "\"second\";r=3;t=1, \"minute\";r=0;t=40"], wait: .seconds(40)),
        Form(
            name: "draft-07 dictionary", headers: ["RateLimit": "limit=100, remaining=0, reset=25"], wait: .seconds(25)),
        Form(
            name: "separate RateLimit-Remaining and RateLimit-Reset",
            headers: ["RateLimit-Limit": "100", "RateLimit-Remaining": "0", "RateLimit-Reset": "15"],
            wait: .seconds(15)),
        Form(
            name: "X-RateLimit-Reset in delta seconds",
            headers: ["X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "20"],
            wait: .seconds(20)),
        Form(
            name: "X-RateLimit-Reset as a Unix time (GitHub), against the clock's date",
            headers: ["X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000045"],
            wait: .seconds(45)),
        Form(
            name: "OpenAI's x-ratelimit-remaining-requests and Go-duration reset",
            headers: ["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6.5s"],
            wait: .milliseconds(6_500)),
    ]

    let stub = StubHTTPClient()
    /// Sleeps move the clock: sequential calls whose waits are read back from `sleeps`.
    let clock = VirtualClock(sleeping: .advancesClock)
    let waits = Recorder<Wait>()
    let origin = "https://api.example.com"

    var recordWait: @Sendable (Wait) -> Void {
        let waits = self.waits
        return { waits.append($0) }
    }

    func client(
        _ interceptor: RateLimitInterceptor, clock: VirtualClock? = nil, retrier: RetryPolicy? = nil,
        maxRetries: Int = 0
    ) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: origin, httpClient: stub,
            configuration: .init(maxRetries: maxRetries, retrier: retrier, clock: clock ?? self.clock))
        apiClient.interceptors.append(interceptor)
        return apiClient
    }

    func spent(reset: String) -> StubResponse {
        .response(headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset])
    }

    @Test("Each header form that says the budget is spent makes the next call wait until its reset", arguments: forms)
    func headerForms(form: Form) async {
        stub.stub(with: .response(headers: form.headers), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        #expect(await apiClient.GET("/a").statusCode == 200)
        #expect(await apiClient.GET("/b").statusCode == 200)
        #expect(clock.sleeps == [form.wait])
        #expect(waits.values == [Wait(budget: origin, duration: form.wait, reason: .budgetSpent)])
        #expect(stub.receivedRequests.count == 2)
    }

    @Test(
        "Each call counts one off the known budget; at zero the next waits until the reset, then the budget is unknown")
    func localAccountingUntilReset() async {
        stub.stub(with: .response(headers: ["X-RateLimit-Remaining": "2", "X-RateLimit-Reset": "60"]), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        for path in ["/1", "/2", "/3"] { #expect(await apiClient.GET(path).statusCode == 200) }
        #expect(clock.sleeps.isEmpty)
        #expect(await apiClient.GET("/4").statusCode == 200)
        #expect(clock.sleeps == [.seconds(60)])
        #expect(await apiClient.GET("/5").statusCode == 200)
        #expect(clock.sleeps == [.seconds(60)])
        #expect(waits.values == [Wait(budget: origin, duration: .seconds(60), reason: .budgetSpent)])
    }

    @Test("A 429's Retry-After holds back every call to the budget until then, concurrent ones included")
    func retryAfterBlocksConcurrentCalls() async throws {
        let clock = VirtualClock()
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "10"]), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait), clock: clock)
        #expect(await apiClient.GET("/first").statusCode == 429)
        let calls = (0..<3).map { index in Task { await apiClient.GET("/later/\(index)") } }
        try await clock.waitForSleepers(3)
        #expect(clock.sleeps == Array(repeating: .seconds(10), count: 3))
        #expect(stub.receivedRequests.count == 1)
        await clock.advance(by: .seconds(10))
        for call in calls { #expect(await awaitingCancellably(call).statusCode == 200) }
        #expect(stub.receivedRequests.count == 4)
        #expect(
            waits.values
                == Array(repeating: Wait(budget: origin, duration: .seconds(10), reason: .retryAfter), count: 3))
    }

    @Test("A 503's retry-after-ms blocks the budget too; a 429 without a wait, or a 200's Retry-After, does not")
    func serviceUnavailableBlocks() async {
        stub.stub(
            with: .response(statusCode: 503, headers: ["retry-after-ms": "1500"]), .response(statusCode: 429),
            .response(headers: [.retryAfter: "30"]), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        #expect(await apiClient.GET("/a").statusCode == 503)
        #expect(await apiClient.GET("/b").statusCode == 429)
        #expect(await apiClient.GET("/c").statusCode == 200)
        #expect(await apiClient.GET("/d").statusCode == 200)
        #expect(clock.sleeps == [.milliseconds(1_500)])
        #expect(waits.values == [Wait(budget: origin, duration: .milliseconds(1_500), reason: .retryAfter)])
    }

    @Test("A 429 that an inner interceptor turned into an error blocks the budget all the same")
    func thrownResponseIsRead() async {
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "5"]), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        apiClient.networkInterceptors.append(FailingStatuses())
        #expect(await apiClient.GET("/a").statusCode == 429)
        #expect(await apiClient.GET("/b").statusCode == 200)
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test("With RetryPolicy a 429's Retry-After is waited once: the retry finds the block over")
    func composesWithRetryPolicy() async throws {
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "7"]), .text("ok"))
        let apiClient = client(
            RateLimitInterceptor(onWait: recordWait), retrier: RetryPolicy(jitter: .none), maxRetries: 1)
        #expect(try await apiClient.GET("/items").get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(7)])
        #expect(waits.values.isEmpty)
        #expect(stub.receivedRequests.count == 2)
    }

    @Test("A retry runs through the interceptor: a 429 that only says the budget is spent waits out the rest of it")
    func retryWaitsForTheSpentBudget() async throws {
        stub.stub(
            with: .response(statusCode: 429, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "30"]),
            .text("ok"))
        let policy = RetryPolicy(
            backoff: RetryPolicy.Backoff(baseDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(10)), jitter: .none)
        let apiClient = client(RateLimitInterceptor(onWait: recordWait), retrier: policy, maxRetries: 1)
        #expect(try await apiClient.GET("/items").get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(1), .seconds(29)])
        #expect(waits.values == [Wait(budget: origin, duration: .seconds(29), reason: .budgetSpent)])
    }

    @Test("The token bucket spaces concurrent calls exactly 1/rate apart after the burst")
    func tokenBucketSpacing() async throws {
        let clock = VirtualClock()
        stub.stub(with: .text("ok"))
        let apiClient = client(RateLimitInterceptor(requestsPerSecond: 2, burst: 2, onWait: recordWait), clock: clock)
        let calls = (0..<5).map { index in Task { await apiClient.GET("/\(index)") } }
        try await clock.waitForSleepers(3)
        #expect(stub.receivedRequests.count == 2)
        #expect(clock.sleeps.sorted() == [.milliseconds(500), .seconds(1), .milliseconds(1_500)])
        await clock.advance(by: .milliseconds(500))
        #expect(await eventually { stub.receivedRequests.count == 3 })
        await clock.advance(by: .seconds(1))
        for call in calls { #expect(await awaitingCancellably(call).statusCode == 200) }
        #expect(waits.values.map(\.reason) == Array(repeating: .tokenBucket, count: 3))
        // The bucket refills: after a pause, a burst goes at once again.
        await clock.advance(by: .seconds(10))
        #expect(await apiClient.GET("/6").statusCode == 200)
        #expect(await apiClient.GET("/7").statusCode == 200)
        #expect(clock.sleeps.count == 3)
    }

    @Test(
        "The concurrency limit queues calls first come, first served; a failed call frees its slot, a cancelled waiter leaves"
    )
    func concurrencyLimitFIFOAndFailure() async throws {
        let interceptor = RateLimitInterceptor(maxConcurrentRequestsPerHost: 1, onWait: recordWait)
        let limiter = try #require(interceptor.concurrencyLimiter)
        stub.stub(with: .text("ok"))
        stub.stub(.path("/a"), with: .failure(.timeout))
        let gate = stub.hold(.path("/a"), next: 1)
        let apiClient = client(interceptor)
        let first = Task { await apiClient.GET("/a") }
        try await gate.waitUntilHeld(1)
        var queued: [Task<Result<HTTPResponse, APIClientError>, Never>] = []
        for (index, path) in ["/b", "/c", "/d"].enumerated() {
            queued.append(Task { await apiClient.GET(path) })
            #expect(await eventually { limiter.waiting(origin) == index + 1 })
        }
        queued[1].cancel()
        #expect(Self.isCancelled(await awaitingCancellably(queued[1])))
        #expect(limiter.waiting(origin) == 2)
        gate.releaseAll()
        #expect(Self.isTimeout(await awaitingCancellably(first)))
        #expect(await awaitingCancellably(queued[0]).statusCode == 200)
        #expect(await awaitingCancellably(queued[2]).statusCode == 200)
        #expect(stub.receivedRequests.map(\.url?.path) == ["/a", "/b", "/d"])
        #expect(limiter.inFlight(origin) == 0)
        #expect(
            waits.values == Array(repeating: Wait(budget: origin, duration: .zero, reason: .concurrencyLimit), count: 3)
        )
    }

    @Test("A call cancelled while in flight gives its slot back to the next in line")
    func concurrencyLimitReleasedOnCancel() async throws {
        let interceptor = RateLimitInterceptor(maxConcurrentRequestsPerHost: 1)
        let limiter = try #require(interceptor.concurrencyLimiter)
        stub.stub(with: .text("ok"))
        let gate = stub.hold(.path("/a"), next: 1)
        let apiClient = client(interceptor)
        let first = Task { await apiClient.GET("/a") }
        try await gate.waitUntilHeld(1)
        let second = Task { await apiClient.GET("/b") }
        #expect(await eventually { limiter.waiting(origin) == 1 })
        first.cancel()
        #expect(Self.isCancelled(await awaitingCancellably(first)))
        #expect(await awaitingCancellably(second).statusCode == 200)
        #expect(limiter.inFlight(origin) == 0)
    }

    @Test("A call cancelled during a wait ends at once as cancelled, unsent")
    func cancellationEndsAWait() async throws {
        let clock = VirtualClock()
        stub.stub(with: spent(reset: "30"), .text("ok"))
        let apiClient = client(RateLimitInterceptor(requestsPerSecond: 1), clock: clock)
        #expect(await apiClient.GET("/a").statusCode == 200)
        let waiting = Task { await apiClient.GET("/b") }
        try await clock.waitForSleepers(1)
        waiting.cancel()
        let stoppedWaiting = await eventually(within: .seconds(10)) { clock.sleeperCount == 0 }
        #expect(stoppedWaiting)
        if !stoppedWaiting { await clock.advance(by: .seconds(30)) }  // ends a wait that ignored the cancellation
        #expect(Self.isCancelled(await awaitingCancellably(waiting)))
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("A wait longer than maxWait fails at once with the Wait as the interceptor error, nothing sent")
    func maxWaitExceededFailsAtOnce() async throws {
        stub.stub(with: spent(reset: "120"), .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        #expect(await apiClient.GET("/a").statusCode == 200)
        #expect(
            Self.refusal(await apiClient.GET("/b"))
                == Wait(budget: origin, duration: .seconds(120), reason: .budgetSpent))
        #expect(stub.receivedRequests.count == 1)
        #expect(clock.sleeps.isEmpty)
        #expect(waits.values.isEmpty)

        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "90"]), .text("ok"))
        let ceiling = client(RateLimitInterceptor(maxWait: .seconds(89)))
        #expect(await ceiling.GET("/a").statusCode == 429)
        #expect(
            Self.refusal(await ceiling.GET("/b")) == Wait(budget: origin, duration: .seconds(90), reason: .retryAfter))

        stub.stub(with: .text("ok"))
        let bucket = client(RateLimitInterceptor(requestsPerSecond: 1.0 / 128))
        #expect(await bucket.GET("/a").statusCode == 200)
        #expect(
            Self.refusal(await bucket.GET("/b")) == Wait(budget: origin, duration: .seconds(128), reason: .tokenBucket))
        #expect(clock.sleeps.isEmpty)

        stub.stub(with: spent(reset: "120"), .text("ok"))
        let patient = client(RateLimitInterceptor(maxWait: nil))
        #expect(await patient.GET("/a").statusCode == 200)
        #expect(await patient.GET("/b").statusCode == 200)
        #expect(clock.sleeps == [.seconds(120)])
    }

    @Test("budgetKey splits one origin's budgets; by default each origin has its own")
    func budgetKeySplit() async throws {
        stub.stub(with: .text("ok"))
        stub.stub(.path("/search/issues"), with: spent(reset: "30"), .text("found"))
        let split = client(
            RateLimitInterceptor(
                budgetKey: { $0.url?.path.hasPrefix("/search") == true ? "search" : "core" }, onWait: recordWait))
        #expect(await split.GET("/search/issues").statusCode == 200)
        #expect(await split.GET("/users/octocat").statusCode == 200)
        #expect(clock.sleeps.isEmpty)
        #expect(await split.GET("/search/issues").statusCode == 200)
        #expect(waits.values == [Wait(budget: "search", duration: .seconds(30), reason: .budgetSpent)])

        stub.stub(.path("/spent"), with: spent(reset: "30"))
        let byOrigin = client(RateLimitInterceptor(onWait: recordWait))
        #expect(await byOrigin.GET("/spent").statusCode == 200)
        let other = HTTPRequest(method: .get, url: try #require(URL(string: "https://uploads.example.com:8443/x")))
        #expect(await byOrigin.send(other).statusCode == 200)
        #expect(clock.sleeps == [.seconds(30)])
        #expect(await byOrigin.GET("/users").statusCode == 200)
        #expect(clock.sleeps == [.seconds(30), .seconds(30)])
        #expect(waits.values.last == Wait(budget: origin, duration: .seconds(30), reason: .budgetSpent))
    }

    @Test("Copies of the interceptor share their budgets; separately made interceptors do not")
    func copiesShareBudgets() async {
        stub.stub(with: spent(reset: "30"), .text("ok"))
        let interceptor = RateLimitInterceptor()
        let first = client(interceptor)
        let second = client(interceptor)
        #expect(await first.GET("/a").statusCode == 200)
        #expect(await second.GET("/b").statusCode == 200)
        #expect(clock.sleeps == [.seconds(30)])
        stub.stub(with: spent(reset: "30"), .text("ok"))
        #expect(await client(RateLimitInterceptor()).GET("/c").statusCode == 200)
        #expect(await client(RateLimitInterceptor()).GET("/d").statusCode == 200)
        #expect(clock.sleeps == [.seconds(30)])
    }

    @Test("Garbage rate-limit headers are ignored: nothing waits, nothing crashes")
    func garbageHeadersIgnored() async {
        stub.stub(
            with: .response(headers: ["X-RateLimit-Remaining": "-1", "X-RateLimit-Reset": "soon"]),
            .response(headers: ["RateLimit": "\"default\";r=zero;t=30", "RateLimit-Policy": ";;;"]),
            .response(statusCode: 429, headers: [.retryAfter: "tomorrow", "retry-after-ms": "-5"]),
            .response(headers: ["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6 minutes"]),
            .response(headers: ["RateLimit": "limit=1, remaining=0, reset=\u{1F600}"]),
            .text("ok"))
        let apiClient = client(RateLimitInterceptor(onWait: recordWait))
        for index in 0..<6 { _ = await apiClient.GET("/\(index)") }
        #expect(stub.receivedRequests.count == 6)
        #expect(clock.sleeps.isEmpty)
        #expect(waits.values.isEmpty)
    }

    @Test("LoggingInterceptor's answer line says how long the call waited for rate limits, only when it did")
    func loggingLineMentionsTheWait() async {
        let lines = Recorder<String>()
        stub.stub(with: spent(reset: "30"), .text("ok"))
        let apiClient = BothamAPIClient(
            baseEndpoint: origin, httpClient: stub, configuration: .init(maxRetries: 0, clock: clock))
        apiClient.interceptors.append(
            LoggingInterceptor(sink: LoggingInterceptor.Sink { _, line in lines.append(line) }))
        apiClient.interceptors.append(RateLimitInterceptor())
        _ = await apiClient.GET("/a")
        _ = await apiClient.GET("/b")
        let answers = lines.values.filter { $0.hasPrefix("<--") }
        #expect(answers.count == 2)
        #expect(answers.first?.contains("waited") == false)
        #expect(answers.last?.contains("2 bytes, waited 30000.0 ms for rate limits) [call") == true)
    }

    /// Throws a 4xx or 5xx response as ``APIClientError/httpResponseError(_:)``, as a validating interceptor of
    /// yours may.
    struct FailingStatuses: HTTPInterceptor {
        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            let response = try await next(request)
            if response.statusCode >= 400 { throw APIClientError.httpResponseError(response) }
            return response
        }
    }

    static func isCancelled(_ result: Result<HTTPResponse, APIClientError>) -> Bool {
        if case .failure(.cancelled) = result { return true }
        return false
    }

    static func isTimeout(_ result: Result<HTTPResponse, APIClientError>) -> Bool {
        if case .failure(.timeout) = result { return true }
        return false
    }

    /// The wait a call was refused for, from its ``APIClientError/interceptorError(underlying:)``.
    static func refusal(_ result: Result<HTTPResponse, APIClientError>) -> Wait? {
        guard case .failure(.interceptorError(let underlying)) = result else { return nil }
        return underlying as? Wait
    }
}
