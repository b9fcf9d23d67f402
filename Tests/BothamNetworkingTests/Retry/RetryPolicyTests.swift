import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RetryPolicy", .timeLimit(.minutes(1)))
struct RetryPolicyTests {
    let stub = StubHTTPClient()
    let clock = VirtualClock(sleeping: .advancesClock)

    func client(_ policy: RetryPolicy, maxRetries: Int = 3) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(maxRetries: maxRetries, retrier: policy, clock: clock)
        )
    }

    func exponential(
        _ jitter: RetryPolicy.Jitter = .none,
        random: RetryPolicy.Random = .constant(0.5),
        base: Duration = .seconds(1),
        max: Duration = .seconds(30)
    ) -> RetryPolicy {
        RetryPolicy(
            backoff: RetryPolicy.Backoff(baseDelay: base, multiplier: 2, maxDelay: max), jitter: jitter, random: random)
    }

    @Test("Without jitter the delays are base × 2^(n−1) and the call succeeds once the server recovers")
    func exactScheduleWithoutJitter() async throws {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 502), .response(statusCode: 500), .text("ok"))
        let result = await client(exponential()).GET("/items")
        #expect(try result.get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(stub.receivedRequests.count == 4)
    }

    @Test("Backoff delays stop growing at the maximum delay")
    func delaysAreCappedAtMaxDelay() async {
        stub.stub(with: .response(statusCode: 503))
        _ = await client(exponential(base: .seconds(10), max: .seconds(25)), maxRetries: 3).GET("/items")
        #expect(clock.sleeps == [.seconds(10), .seconds(20), .seconds(25)])
    }

    @Test("Full jitter scales each delay by the random draw")
    func fullJitter() async {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        _ = await client(exponential(.full, random: sequence([0.5, 0.25, 1]))).GET("/items")
        #expect(clock.sleeps == [.milliseconds(500), .milliseconds(500), .seconds(4)])
    }

    @Test("Equal jitter keeps each delay between half and all of the backoff")
    func equalJitter() async {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        _ = await client(exponential(.equal, random: sequence([0, 0.5, 1]))).GET("/items")
        #expect(clock.sleeps == [.milliseconds(500), .milliseconds(1_500), .seconds(4)])
    }

    @Test("Proportional jitter stays within ±fraction of the backoff and never exceeds the maximum")
    func proportionalJitterBounds() async {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        let policy = exponential(.proportional(0.25), random: sequence([0, 1, 1]), max: .seconds(4.5))
        _ = await client(policy).GET("/items")
        // 1 s × 0.75, 2 s × 1.25, 4 s × 1.25 = 5 s capped at 4.5 s.
        #expect(clock.sleeps == [.milliseconds(750), .milliseconds(2_500), .milliseconds(4_500)])
    }

    @Test("Retry-After in seconds replaces the backoff delay")
    func retryAfterSeconds() async throws {
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "7"]), .text("ok"))
        let result = await client(exponential(.full)).GET("/items")
        #expect(try result.get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test("Retry-After longer than the backoff's maximum is waited out in full, up to the 60 s ceiling")
    func retryAfterBeyondMaxDelay() async throws {
        stub.stub(
            with: .response(statusCode: 429, headers: [.retryAfter: "45"]),
            .response(statusCode: 503, headers: [.retryAfter: "60"]), .text("ok"))
        let result = await client(exponential(max: .seconds(10))).GET("/items")
        #expect(try result.get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(45), .seconds(60)])
    }

    @Test("Retry-After beyond the ceiling ends the call at once with that response, not an early retry")
    func retryAfterBeyondCeilingFailsFast() async {
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "61"]), .text("ok"))
        let defaultCeiling = await client(exponential()).GET("/items")
        #expect(defaultCeiling.statusCode == 429)
        guard case .httpResponseError(let response) = defaultCeiling.error else {
            Issue.record("expected the 429 itself, got \(defaultCeiling)")
            return
        }
        #expect(response.headers[.retryAfter] == "61")
        #expect(stub.receivedRequests.count == 1)

        var policy = exponential()
        policy.retryAfterLimit = .seconds(90)
        stub.stub(
            with: .response(statusCode: 503, headers: [.retryAfter: "90"]),
            .response(statusCode: 503, headers: [.retryAfter: "99999999999999999999999"]), .text("ok"))
        let configured = await client(policy).GET("/items")
        #expect(configured.statusCode == 503)
        #expect(stub.receivedRequests.count == 3)
        #expect(clock.sleeps == [.seconds(90)])

        policy.retryAfterLimit = nil
        stub.stub(with: .response(statusCode: 503, headers: [.retryAfter: "3600"]), .text("ok"))
        #expect(await client(policy).GET("/items").statusCode == 200)
        #expect(clock.sleeps == [.seconds(90), .seconds(3_600)])
    }

    @Test("retry-after-ms gives the wait in milliseconds and wins over Retry-After")
    func retryAfterMilliseconds() async throws {
        stub.stub(
            with: .response(statusCode: 429, headers: ["retry-after-ms": "1500", .retryAfter: "2"]),
            .response(statusCode: 429, headers: ["retry-after-ms": "20.5"]),
            .response(statusCode: 429, headers: ["retry-after-ms": "soon", .retryAfter: "3"]), .text("ok"))
        let result = await client(exponential(.full)).GET("/items")
        #expect(try result.get().statusCode == 200)
        #expect(clock.sleeps == [.milliseconds(1_500), .microseconds(20_500), .seconds(3)])
    }

    @Test("A 429's x-ratelimit-reset durations (6m0s, 1.5s, 20ms) give the wait: the spent budget's, else the longer")
    func rateLimitResetHints() async throws {
        let reset: HTTPHeaders = ["x-ratelimit-reset-requests": "1.5s", "x-ratelimit-reset-tokens": "20ms"]
        var spentTokens = reset
        spentTokens["x-ratelimit-remaining-tokens"] = "0"
        spentTokens["x-ratelimit-remaining-requests"] = "12"
        stub.stub(
            with: .response(statusCode: 429, headers: reset), .response(statusCode: 429, headers: spentTokens),
            .response(statusCode: 429, headers: ["x-ratelimit-reset-tokens": "1m0s"]),
            .response(statusCode: 503, headers: ["x-ratelimit-reset-requests": "45s"]), .text("ok"))
        let result = await client(exponential(), maxRetries: 4).GET("/items")
        #expect(try result.get().statusCode == 200)
        // The 503's reset field is no hint (it says when the budget refills, not that the call was limited).
        #expect(clock.sleeps == [.milliseconds(1_500), .milliseconds(20), .seconds(60), .seconds(8)])

        stub.stub(with: .response(statusCode: 429, headers: ["x-ratelimit-reset-tokens": "6m0s"]), .text("ok"))
        #expect(await client(exponential()).GET("/items").statusCode == 429)  // beyond the 60 s ceiling
    }

    @Test("Go-style durations are read exactly and anything else is no hint")
    func goDurations() {
        #expect(RetryHints.duration("6m0s") == .seconds(360))
        #expect(RetryHints.duration("1h2m3.5s") == .milliseconds(3_723_500))
        #expect(RetryHints.duration("20ms") == .milliseconds(20))
        #expect(RetryHints.duration("0") == .zero)
        for garbage in ["", "6", "1.5", "s", "5 minutes", "1d", "-1s", "1s2", "１s"] {
            #expect(RetryHints.duration(garbage) == nil, "\(garbage)")
        }
        #expect(RetryHints.milliseconds("250") == .milliseconds(250))
        for garbage in ["", "-5", "nan", "inf", "1e3", "5 ms"] { #expect(RetryHints.milliseconds(garbage) == nil) }
    }

    @Test("Retry-After as an HTTP-date is measured against the client clock's date")
    func retryAfterHTTPDate() async {
        let now = Date(timeIntervalSince1970: 784_111_765)  // Sun, 06 Nov 1994 08:49:25 GMT
        let clock = VirtualClock(startDate: now, sleeping: .advancesClock)
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(retrier: exponential(), clock: clock))
        stub.stub(
            with: .response(statusCode: 503, headers: [.retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT"]),
            .response(statusCode: 503, headers: [.retryAfter: "Sun, 06 Nov 1994 08:00:00 GMT"]),
            .text("ok")
        )
        _ = await apiClient.GET("/items")
        #expect(clock.sleeps == [.seconds(12), .zero])
        #expect(clock.currentDate == now.addingTimeInterval(12))
    }

    @Test("An unparseable Retry-After falls back to the backoff")
    func garbageRetryAfter() async {
        stub.stub(with: .response(statusCode: 503, headers: [.retryAfter: "soon-ish"]), .text("ok"))
        _ = await client(exponential()).GET("/items")
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test("POST is not retried by default, and is when non-idempotent methods are opted in")
    func nonIdempotentMethods() async {
        stub.stub(with: .response(statusCode: 503), .text("created"))
        let refused = await client(exponential()).POST("/items", body: ["a": 1])
        #expect(refused.statusCode == 503)
        #expect(stub.receivedRequests.count == 1)

        var policy = exponential()
        policy.retriesNonIdempotentMethods = true
        stub.stub(with: .response(statusCode: 503), .text("created"))
        let retried = await client(policy).POST("/items", body: ["a": 1])
        #expect(retried.statusCode == 200)
        #expect(stub.receivedRequests.count == 3)
    }

    @Test("A POST or PATCH is retried when it carries an Idempotency-Key, and not without one")
    func keyedPostIsRetried() async {
        stub.stub(with: .response(statusCode: 429, headers: [.retryAfter: "1"]), .text("created"))
        let apiClient = client(exponential())
        let keyed = await apiClient.send(
            apiClient.request(.post, "/charges", body: ["a": 1]).withHeader("Idempotency-Key", "k-1"))
        #expect(keyed.statusCode == 200)
        #expect(stub.receivedRequests.map { $0.headers["Idempotency-Key"] } == ["k-1", "k-1"])

        stub.stub(with: .response(statusCode: 503), .text("patched"))
        let patched = await apiClient.send(apiClient.request(.patch, "/a").withHeader("Idempotency-Key", "k-2"))
        #expect(patched.statusCode == 200)

        stub.stub(with: .response(statusCode: 429), .text("created"))
        #expect(await client(exponential()).POST("/charges", body: ["a": 1]).statusCode == 429)
        stub.stub(with: .response(statusCode: 503), .text("locked"))
        let other = await apiClient.send(
            apiClient.request(HTTPMethod("LOCK"), "/a").withHeader("Idempotency-Key", "k-3"))
        #expect(other.statusCode == 503)  // the key makes POST and PATCH repeatable, no other method
        #expect(stub.receivedRequests.count == 6)
    }

    @Test("A 429 that survives every retry still answers statusCode 429 and its response, as the Quick start matches")
    func spentBudgetExposesStatus() async {
        stub.stub(with: .response(statusCode: 429, body: Data("slow down".utf8)))
        let result = await client(exponential(), maxRetries: 2).GET("/items")
        guard case .retryLimitExceeded(3, _) = result.error else {
            Issue.record("expected retryLimitExceeded, got \(result)")
            return
        }
        #expect(result.error?.statusCode == 429)
        #expect(result.error?.response?.body == Data("slow down".utf8))
    }

    @Test("Statuses outside the retryable set are returned at once")
    func nonRetryableStatus() async {
        stub.stub(with: .response(statusCode: 404))
        let result = await client(exponential()).GET("/items")
        #expect(result.statusCode == 404)
        #expect(stub.receivedRequests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("Retryable network failures and timeouts are retried; other failures are not")
    func networkFailures() async throws {
        stub.stub(
            with: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))),
            .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))),
            .text("late").delayed(by: .seconds(5)),
            .text("ok")
        )
        let request = HTTPRequest(
            method: .get, baseEndpoint: "https://api.example.com", path: "/a", timeout: .seconds(1))
        let result = await client(exponential()).send(request)
        #expect(try result.get().statusCode == 200)
        #expect(stub.receivedRequests.count == 4)

        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed))))
        let tls = await client(exponential()).GET("/b")
        guard case .networkError(let failure) = tls.error else {
            Issue.record("expected a network error, got \(tls)")
            return
        }
        #expect(failure.kind == .secureConnectionFailed)
        #expect(stub.receivedRequests.count == 5)
    }

    @Test("A spent budget ends with retryLimitExceeded carrying the last response")
    func budgetExhaustionWithResponse() async throws {
        stub.stub(with: .response(statusCode: 503, body: Data("down".utf8)))
        let result = await client(exponential(), maxRetries: 2).GET("/items")
        guard case .retryLimitExceeded(let attempts, .success(let last)) = result.error else {
            Issue.record("expected retryLimitExceeded with a response, got \(result)")
            return
        }
        #expect(attempts == 3)
        #expect(last.statusCode == 503)
        #expect(last.body == Data("down".utf8))
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("A spent budget ends with retryLimitExceeded carrying the last error")
    func budgetExhaustionWithError() async {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotFindHost))))
        let result = await client(exponential(), maxRetries: 1).GET("/items")
        guard case .retryLimitExceeded(2, .failure(.networkError(let failure))) = result.error else {
            Issue.record("expected retryLimitExceeded with a network error, got \(result)")
            return
        }
        #expect(failure.kind == .cannotFindHost)
    }

    @Test("Cancelling during an hour-long backoff ends the call promptly with cancelled")
    func cancellationDuringBackoff() async throws {
        let virtual = VirtualClock()
        stub.stub(with: .response(statusCode: 503))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(
                retrier: exponential(base: .seconds(3_600), max: .seconds(3_600)),
                clock: virtual
            )
        )
        let call = Task { await apiClient.GET("/items") }
        try await virtual.waitForSleepers(1)
        #expect(virtual.sleeps == [.seconds(3_600)])
        let clock = ContinuousClock()
        let cancelledAt = clock.now
        call.cancel()
        let result = await awaitingCancellably(call)
        let elapsed = clock.now - cancelledAt
        guard case .cancelled = result.error else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        // The hour-long backoff was cut short by the cancellation; the bound is loose so a loaded machine cannot
        // fail it, yet far below the backoff.
        #expect(virtual.sleeperCount == 0, "the sleep was interrupted, not woken")
        #expect(virtual.elapsed == .zero)
        #expect(elapsed < .seconds(30) + TestTimeScale.schedulingDelay(since: cancelledAt))
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("The policy never retries a cancelled outcome")
    func neverRetriesCancellation() async {
        let decision = await RetryPolicy().decision(
            for: .failure(.cancelled),
            request: HTTPRequest(method: .get, baseEndpoint: "https://a.example"),
            context: HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 4)
        )
        #expect(decision == .doNotRetry)
    }
}
