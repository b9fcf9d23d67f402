import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Retrying", .timeLimit(.minutes(1)))
struct RetryTests {
    let stub = StubHTTPClient()
    let log = Recorder<String>()

    init() {
        stub.stub(with: .text("ok"))
    }

    private func makeClient(maxRetries: Int = 3) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: "https://h.example", httpClient: stub, configuration: .init(maxRetries: maxRetries))
    }

    @Test(
        "A response interceptor returning .retry n times gives n+1 sends and re-runs request interceptors",
        arguments: [1, 2, 3])
    func retryResendsThroughRequestInterceptors(times: Int) async throws {
        let apiClient = makeClient(maxRetries: 3)
        let retrying = RetryingResponseInterceptor(times: times)
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "auth", log: log, host: nil))
        apiClient.responseInterceptors.append(retrying)
        let response = try await apiClient.GET("/x").get()
        #expect(response.statusCode == 200)
        #expect(stub.receivedRequests.count == times + 1)
        #expect(log.values.count == times + 1)
        #expect(retrying.attempts.values == Array(1...(times + 1)))
    }

    @Test("Each attempt starts again from the original request")
    func eachAttemptStartsFromOriginal() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "a", log: log, host: nil))
        apiClient.responseInterceptors.append(RetryingResponseInterceptor(times: 2))
        _ = await apiClient.GET("/x")
        for request in stub.receivedRequests {
            #expect(request.headers.values(for: "X-Intercepted-a") == ["yes"])
        }
    }

    @Test("Spending the budget ends with retryLimitExceeded carrying the last response")
    func budgetEndsWithRetryLimitExceeded() async throws {
        stub.stub(with: .text("unauthorized", statusCode: 401))
        let apiClient = makeClient(maxRetries: 2)
        apiClient.responseInterceptors.append(RetryingResponseInterceptor(times: 100))
        let result = await apiClient.GET("/x")
        guard case .failure(.retryLimitExceeded(let attempts, .success(let last))) = result else {
            Issue.record("expected retryLimitExceeded with a response, got \(result)")
            return
        }
        #expect(attempts == 3)
        #expect(last.statusCode == 401)
        #expect(stub.receivedRequests.count == 3)
    }

    @Test("A zero budget never retries")
    func zeroBudget() async {
        let apiClient = makeClient(maxRetries: 0)
        apiClient.responseInterceptors.append(RetryingResponseInterceptor(times: 1))
        let result = await apiClient.GET("/x")
        guard case .failure(.retryLimitExceeded(1, _)) = result else {
            Issue.record("expected retryLimitExceeded after one attempt, got \(result)")
            return
        }
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("Retrying after a transport error keeps the error as the last outcome")
    func retryAfterError() async {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))))
        struct RetryErrors: BothamResponseInterceptor {
            func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
                .proceed(response)
            }
            func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
                .retry
            }
        }
        let apiClient = makeClient(maxRetries: 1)
        apiClient.responseInterceptors.append(RetryErrors())
        let result = await apiClient.GET("/x")
        guard case .failure(.retryLimitExceeded(2, .failure(.networkError(let failure)))) = result else {
            Issue.record("expected retryLimitExceeded with the network error, got \(result)")
            return
        }
        #expect(failure.kind == .connectionLost)
    }

    struct FixedStrategy: RequestRetrier {
        func decision(
            for outcome: Result<HTTPResponse, APIClientError>,
            request: HTTPRequest,
            context: HTTPCallContext
        ) async -> RetryDecision {
            if case .success(let response) = outcome, response.statusCode == 503 {
                return .retry(after: .milliseconds(100 * context.attempt))
            }
            return .doNotRetry
        }
    }

    @Test("A retry strategy's delays are slept on the client's clock and share the budget")
    func strategyUsesSleeper() async {
        stub.stub(with: .response(statusCode: 503))
        let clock = VirtualClock(sleeping: .advancesClock)
        let configuration = BothamAPIClient.Configuration(
            maxRetries: 3,
            retrier: FixedStrategy(),
            clock: clock
        )
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example", httpClient: stub, configuration: configuration)
        let result = await apiClient.GET("/x")
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(clock.elapsed == .milliseconds(600))
        guard case .failure(.retryLimitExceeded(4, .success(let last))) = result else {
            Issue.record("expected retryLimitExceeded, got \(result)")
            return
        }
        #expect(last.statusCode == 503)
    }

    @Test("Cancelling the calling task ends the call with cancelled and it is never retried")
    func cancellationIsNotRetried() async throws {
        let slow = StubHTTPClient(latency: .clock)
        slow.stub(with: StubResponse.text("late").delayed(by: .seconds(3_600)))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: slow)
        apiClient.responseInterceptors.append(RetryingResponseInterceptor(times: 100))
        let start = ContinuousClock.now
        let task = Task { await apiClient.GET("/x") }
        while slow.receivedRequests.isEmpty { await Task.yield() }
        task.cancel()
        let result = await awaitingCancellably(task)
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(slow.receivedRequests.count == 1)
        #expect(
            ContinuousClock.now - start < .seconds(30) + TestTimeScale.schedulingDelay(since: start),
            "an hour-long wait must end at once, even on a loaded machine")
    }

    @Test("Cancellation during a retry backoff ends promptly with cancelled")
    func cancellationDuringBackoff() async throws {
        stub.stub(with: .response(statusCode: 503))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example",
            httpClient: stub,
            configuration: .init(retrier: FixedLongStrategy())
        )
        let start = ContinuousClock.now
        let task = Task { await apiClient.GET("/x") }
        while stub.receivedRequests.isEmpty { await Task.yield() }
        task.cancel()
        let result = await awaitingCancellably(task)
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(
            ContinuousClock.now - start < .seconds(30) + TestTimeScale.schedulingDelay(since: start),
            "an hour-long wait must end at once, even on a loaded machine")
    }

    struct FixedLongStrategy: RequestRetrier {
        func decision(
            for outcome: Result<HTTPResponse, APIClientError>,
            request: HTTPRequest,
            context: HTTPCallContext
        ) async -> RetryDecision {
            .retry(after: .seconds(3_600))
        }
    }
}
