import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// One clock for everything time-based in a call: each test runs a call on a `VirtualClock` and advances it. The
/// virtual time every test lets pass is longer than the suite's time limit, so a real sleep anywhere would fail it:
/// the tests are fast by design, not by timing.
@Suite("VirtualClock in a call", .timeLimit(.minutes(1)))
struct VirtualClockCallTests {
    let stub = StubHTTPClient()
    let clock = VirtualClock()

    func client(_ configuration: BothamAPIClient.Configuration = .init()) -> BothamAPIClient {
        var configuration = configuration
        configuration.clock = clock
        return BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub, configuration: configuration)
    }

    @Test("Without a clock of its own a call runs on the system clock: real time stays the default")
    func systemClockIsTheDefault() async throws {
        #expect(BothamAPIClient.Configuration().clock is SystemClock)
        let seen = Recorder<any HTTPClock>()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.requestInterceptors.append(ClockReader(seen: seen))
        _ = try await apiClient.GET("/now").get()
        #expect(seen.values.count == 1)
        #expect(seen.values.first is SystemClock)
    }

    /// Records the clock of the call it runs in.
    struct ClockReader: BothamRequestInterceptor {
        let seen: Recorder<any HTTPClock>

        func intercept(request: HTTPRequest) async throws -> HTTPRequest {
            if let context = HTTPCallContext.current { seen.append(context.clock) }
            return request
        }
    }

    @Test("Retry backoff sleeps exactly the computed durations, and each retry waits for the clock")
    func retryBackoff() async throws {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        let policy = RetryPolicy(
            backoff: RetryPolicy.Backoff(baseDelay: .seconds(30), maxDelay: .seconds(300)), jitter: .none)
        let apiClient = client(.init(maxRetries: 3, retrier: policy))
        let call = Task { await apiClient.GET("/items") }
        for (retry, delay) in [Duration.seconds(30), .seconds(60), .seconds(120)].enumerated() {
            try await clock.waitForSleepers(1)
            #expect(stub.receivedRequests.count == retry + 1, "the next attempt waits for the clock")
            await clock.advance(by: delay - .milliseconds(1))
            #expect(clock.sleeperCount == 1, "still waiting 1 ms before the retry")
            await clock.advance(by: .milliseconds(1))
        }
        #expect(try await awaitingCancellably(call).get().statusCode == 200)
        #expect(clock.sleeps == [.seconds(30), .seconds(60), .seconds(120)])
        #expect(clock.elapsed == .seconds(210))
        #expect(stub.receivedRequests.count == 4)
    }

    @Test("Retry-After: 120 is honoured on the virtual clock, and an HTTP-date is read against its date")
    func retryAfter() async throws {
        let retryAt = HTTPDateText.imf(clock.currentDate.addingTimeInterval(300))
        stub.stub(
            with: .response(statusCode: 503, headers: [.retryAfter: "120"]),
            .response(statusCode: 503, headers: [.retryAfter: retryAt]), .text("ok"))
        let apiClient = client(.init(retrier: RetryPolicy(retryAfterLimit: .seconds(600))))
        let call = Task { await apiClient.GET("/items") }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(120)])
        await clock.advance(by: .seconds(120))
        try await clock.waitForSleepers(1)
        // The date is 300 s after the start and 120 s have passed: 180 s to go.
        #expect(clock.sleeps == [.seconds(120), .seconds(180)])
        await clock.advance(by: .seconds(180))
        #expect(try await awaitingCancellably(call).get().statusCode == 200)
        #expect(stub.receivedRequests.count == 3)
    }

    @Test("Stub latency on the call's clock: the answer comes when the clock passes it, a timeout when it is longer")
    func stubLatency() async throws {
        let slow = StubHTTPClient(latency: .clock)
        slow.stub(.path("/slow"), with: .text("late").delayed(by: .seconds(90)))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: slow, configuration: .init(clock: clock))
        let call = Task { await apiClient.GET("/slow") }
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(89))
        #expect(clock.sleeperCount == 1, "89 s is not enough")
        await clock.advance(by: .seconds(1))
        #expect(try await awaitingCancellably(call).get().body == Data("late".utf8))

        let timed = Task { await apiClient.send(apiClient.request(.get, "/slow").withTimeout(.seconds(30))) }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(90), .seconds(30)], "a latency beyond the timeout waits the timeout")
        await clock.advance(by: .seconds(30))
        guard case .failure(.timeout) = await awaitingCancellably(timed) else {
            Issue.record("expected the request's timeout")
            return
        }
    }

    @Test("callTimeout fires when the clock is advanced past it, and not before")
    func callTimeout() async throws {
        let slow = StubHTTPClient(latency: .clock)
        slow.stub(with: .text("late").delayed(by: .seconds(600)))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: slow,
            configuration: .init(clock: clock, callTimeout: .seconds(75)))
        let call = Task { await apiClient.GET("/slow") }
        try await clock.waitForSleepers(2)  // the call's timer and the stub's latency
        await clock.advance(by: .seconds(74))
        #expect(clock.sleeperCount == 2, "the call is still running at 74 s")
        await clock.advance(by: .seconds(1))
        guard case .failure(.timeout) = await awaitingCancellably(call) else {
            Issue.record("expected the call timeout")
            return
        }
        #expect(clock.sleeperCount == 0, "the cancelled latency stopped sleeping")
        #expect(clock.elapsed == .seconds(75))
    }

    @Test("Cache freshness and staleness follow the client's clock")
    func cacheFreshness() async throws {
        stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=100"]),
            .text("v2", headers: ["Cache-Control": "max-age=100"]))
        let apiClient = client(.init(validation: .acceptAll))
        apiClient.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
        _ = try await apiClient.GET("/item").get()
        await clock.advance(by: .seconds(99))
        let fresh = try await apiClient.GET("/item").get()
        #expect(fresh.cacheStatus == .hit)
        #expect(fresh.headers["Age"] == "99")
        await clock.advance(by: .seconds(2))
        let stale = try await apiClient.GET("/item").get()
        #expect(stale.cacheStatus == .miss)
        #expect(stale.body == Data("v2".utf8))
        #expect(stub.receivedRequests.count == 2)
    }

    @Test("EventSource waits the stream's retry: time on the client's clock before reconnecting")
    func eventSourceReconnection() async throws {
        let headers: HTTPHeaders = [.contentType: "text/event-stream"]
        stub.stub(
            with: .streamed(
                headers: headers, chunks: [StubChunk("retry: 90000\nid: 1\ndata: one\n\n")],
                end: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost)))),
            .streamed(headers: headers, chunks: [StubChunk("id: 2\ndata: two\n\n")]),
            .response(statusCode: 204))
        let apiClient = client()
        let reader = Task { () -> [String] in
            var data: [String] = []
            for try await event in apiClient.eventSource(
                apiClient.request(.get, "/feed"), policy: EventSource.Policy(jitter: .none))
            {
                data.append(event.data)
            }
            return data
        }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(90)])
        #expect(stub.receivedRequests.count == 1)
        await clock.advance(by: .seconds(89))
        #expect(stub.receivedRequests.count == 1, "no reconnection before the retry: time")
        await clock.advance(by: .seconds(1))
        try await clock.waitForSleepers(1)  // the stream ended again: the next wait
        #expect(stub.receivedRequests.count == 2)
        #expect(stub.receivedRequests[1].headers["Last-Event-ID"] == "1")
        await clock.advance(by: .seconds(90))
        #expect(try await awaitingCancellably(reader) == ["one", "two"])
        #expect(clock.sleeps == [.seconds(90), .seconds(90)])
    }

    @Test("A cookie's Max-Age runs out on the client's clock")
    func cookieExpiry() async throws {
        stub.stub(
            .path("/login"), with: .response(statusCode: 204, headers: ["Set-Cookie": "session=abc; Max-Age=3600"]))
        stub.stub(.path("/me"), with: .text("me"))
        let jar = CookieJar(publicSuffixes: PublicSuffixList(rules: "com"), clock: clock)
        let apiClient = client()
        apiClient.interceptors.append(jar)
        _ = try await apiClient.GET("/login").get()
        await clock.advance(by: .seconds(3_599))
        _ = try await apiClient.GET("/me").get()
        #expect(stub.receivedRequests.last?.headers[.cookie] == "session=abc")
        await clock.advance(by: .seconds(1))
        _ = try await apiClient.GET("/me").get()
        #expect(stub.receivedRequests.last?.headers[.cookie] == nil)
        #expect(jar.allCookies.isEmpty, "the jar's own clock agrees")
    }

    @Test("Logged and measured durations are the call's clock's")
    func durations() async throws {
        let slow = StubHTTPClient(latency: .clock)
        slow.stub(with: .text("ok").delayed(by: .seconds(200)))
        let reports = Recorder<MetricsInterceptor.Report>()
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: slow, configuration: .init(clock: clock))
        apiClient.interceptors.append(MetricsInterceptor { reports.append($0) })
        let call = Task { await apiClient.GET("/") }
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(200))
        _ = try await awaitingCancellably(call).get()
        #expect(reports.values.map(\.duration) == [.seconds(200)])
    }

    @Test("A streamed body's duration is measured on the call's clock, chunk delays included")
    func streamedBodyDuration() async throws {
        let slow = StubHTTPClient(latency: .clock)
        slow.stub(with: .streamed(chunks: [StubChunk("a"), StubChunk("b", after: .seconds(40))]))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: slow, configuration: .init(clock: clock))
        let response = try await apiClient.stream(apiClient.request(.get, "/feed"))
        let summaries = Recorder<HTTPBodyStream.Summary>()
        response.body.onEnd { summaries.append($0) }
        let reader = Task { try await response.body.collect() }
        try await clock.waitForSleepers(1)  // the second chunk's delay
        await clock.advance(by: .seconds(40))
        #expect(try await awaitingCancellably(reader) == Data("ab".utf8))
        #expect(summaries.values.map(\.duration) == [.seconds(40)])
        #expect(summaries.values.map(\.bytes) == [2])
    }
}

/// IMF-fixdates for `Retry-After` and `Expires` values.
enum HTTPDateText {
    static func imf(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
