import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("MetricsInterceptor", .timeLimit(.minutes(1)))
struct MetricsInterceptorTests {
    let stub = StubHTTPClient()
    let reports = Recorder<MetricsInterceptor.Report>()

    func client(clock: VirtualClock = VirtualClock(sleeping: .advancesClock)) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(
                maxRetries: 3,
                retrier: RetryPolicy(jitter: .none),
                clock: clock
            )
        )
        let reports = self.reports
        apiClient.interceptors.append(
            MetricsInterceptor(redactor: Redactor(queryParameterNames: ["key"])) { reports.append($0) })
        return apiClient
    }

    @Test("One report per call sums bytes over attempts, counts the attempts and times the whole call")
    func oneReportAcrossRetries() async throws {
        stub.stub(with: .text("err", statusCode: 503), .text("err", statusCode: 503), .text("hello"))
        // The two waits between attempts (0.5 s and 1 s of backoff) pass on the client's virtual clock, so the
        // call's duration is known exactly.
        let clock = VirtualClock(sleeping: .advancesClock)
        let apiClient = client(clock: clock)
        let result = await apiClient.PUT("/items/1", parameters: ["key": "SECRET"], body: .text("abcd"))
        #expect(try result.get().statusCode == 200)
        let report = try #require(reports.values.first)
        #expect(reports.values.count == 1)
        #expect(report.attempts == 3)
        #expect(report.statusCode == 200)
        #expect(report.bytesSent == 12)
        #expect(report.bytesReceived == 11)
        #expect(report.method == .put)
        #expect(report.url == "https://api.example.com/items/1?key=REDACTED")
        // The duration spans every attempt and both waits, from the call's start (not the last attempt's).
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
        #expect(report.duration == .milliseconds(1_500), "\(report.duration)")
        #expect(report.duration == clock.elapsed)
    }

    @Test("Failures are reported once with their error, including calls that never reach the transport")
    func failures() async {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed))))
        let apiClient = client()
        _ = await apiClient.GET("/tls")
        _ = await apiClient.send(apiClient.request(.get, "/bad", headers: ["X-Bad": "a\nb"]))
        let values = reports.values
        #expect(values.count == 2)
        guard case .failure(.networkError) = values[0].outcome, case .failure(.invalidRequest) = values[1].outcome
        else {
            Issue.record("unexpected outcomes: \(values.map(\.outcome))")
            return
        }
        #expect(values[1].bytesSent == 0 && values[1].attempts == 1)
    }

    @Test("A spent budget reports the last status")
    func budgetSpent() async throws {
        stub.stub(with: .response(statusCode: 503))
        _ = await client().GET("/down")
        let report = try #require(reports.values.first)
        #expect(report.attempts == 4)
        #expect(report.statusCode == 503)
    }

    @Test("Concurrent calls get one report each")
    func concurrentCalls() async {
        stub.stub(with: .text("ok"))
        let apiClient = client()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<30 { group.addTask { _ = await apiClient.GET("/items/\(index)") } }
        }
        #expect(reports.values.count == 30)
        #expect(Set(reports.values.map(\.callID)).count == 30)
        #expect(reports.values.allSatisfy { $0.bytesReceived == 2 && $0.attempts == 1 })
    }

    @Test("Two metrics interceptors on one client each count the call once, in the call's own values")
    func twoInterceptorsKeepSeparateTotals() async throws {
        stub.stub(with: .text("ok"))
        let apiClient = client()
        let second = Recorder<MetricsInterceptor.Report>()
        apiClient.interceptors.append(MetricsInterceptor { second.append($0) })

        _ = await apiClient.PUT("/items/1", body: .text("abcd"))

        let first = try #require(reports.values.first)
        let other = try #require(second.values.first)
        #expect(reports.values.count == 1 && second.values.count == 1)
        #expect(first.bytesSent == 4 && other.bytesSent == 4)
        #expect(first.bytesReceived == 2 && other.bytesReceived == 2)
        #expect(first.callID == other.callID)
    }
}

@Suite("MetricsInterceptor timings", .timeLimit(.minutes(1)))
struct MetricsInterceptorTimingsTests {
    @Test("The report keeps one timings entry per attempt, in order, nil for a failed attempt")
    func oneTimingsPerAttempt() async throws {
        let first = HTTPResponse.Timings.sample(step: 1)
        let last = HTTPResponse.Timings.sample(step: 3, reused: true)
        let transport = TimedTransport([
            .success((statusCode: 503, timings: first)),
            .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))),
            .success((statusCode: 200, timings: last)),
        ])
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: transport,
            configuration: .init(
                maxRetries: 3, retrier: RetryPolicy(jitter: .none), clock: VirtualClock(sleeping: .advancesClock))
        )
        let reports = Recorder<MetricsInterceptor.Report>()
        apiClient.interceptors.append(MetricsInterceptor { reports.append($0) })

        let response = try await apiClient.GET("/items").get()

        #expect(response.timings == last)
        let report = try #require(reports.values.first)
        #expect(report.attempts == 3)
        #expect(report.timings == [first, nil, last])
    }

    @Test("A transport that measures nothing gives one nil entry per attempt")
    func untimedTransport() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let reports = Recorder<MetricsInterceptor.Report>()
        apiClient.interceptors.append(MetricsInterceptor { reports.append($0) })

        _ = try await apiClient.GET("/items").get()

        #expect(try #require(reports.values.first).timings == [nil])
    }
}
