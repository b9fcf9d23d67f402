import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// `Configuration.callTimeout` bounds the whole call: every attempt and every wait between them.
@Suite("The call timeout bounds a whole call, retries included", .timeLimit(.minutes(1)))
struct CallTimeoutTests {
    /// Answers 503 after `delay` (a slow, failing server), the first `immediateAnswers` sends at once; the wait
    /// ends early when the call is cancelled.
    struct SlowFailingTransport: HTTPClient {
        let delay: Duration
        var immediateAnswers = 0
        let sends = Counter()
        /// Yields each time a request reaches the transport.
        let reached = AsyncStream<Void>.makeStream()

        func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
            sends.increment()
            reached.continuation.yield()
            if sends.value > immediateAnswers {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
            }
            return HTTPResponse(statusCode: 503, headers: [:], body: Data(), request: request)
        }
    }

    /// Retries every outcome after `delay`.
    struct AlwaysRetry: RequestRetrier {
        var delay: Duration = .milliseconds(20)

        func decision(
            for outcome: Result<HTTPResponse, APIClientError>, request: HTTPRequest, context: HTTPCallContext
        ) async -> RetryDecision {
            .retry(after: delay)
        }
    }

    /// Remembers how calls ended.
    final class Observer: HTTPInterceptor {
        let results = Recorder<Result<HTTPResponse, APIClientError>>()

        func intercept(
            _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
        ) async throws -> HTTPResponse {
            try await next(request)
        }

        func callDidFinish(
            _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
        ) {
            results.append(result)
        }
    }

    static func client(
        _ transport: SlowFailingTransport, callTimeout: Duration?, maxRetries: Int = 1_000,
        retrier: AlwaysRetry = AlwaysRetry(), observer: Observer? = nil
    ) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: transport,
            configuration: .init(maxRetries: maxRetries, retrier: retrier, callTimeout: callTimeout)
        )
        if let observer { apiClient.interceptors.append(observer) }
        return apiClient
    }

    @Test("A call that keeps being retried ends with timeout when callTimeout runs out, after several attempts")
    func retriesEndAtTheCallTimeout() async throws {
        // Three attempts answer at once and are retried at once (no timer a starved pool could delay past the call
        // timeout); the fourth hangs until the call timeout ends it.
        let transport = SlowFailingTransport(delay: .seconds(3_600), immediateAnswers: 3)
        let callTimeout = TestTimeScale.scaled(.seconds(1))
        let apiClient = Self.client(transport, callTimeout: callTimeout, retrier: AlwaysRetry(delay: .zero))
        let start = ContinuousClock.now
        let result = await apiClient.GET("/flaky")
        let elapsed = ContinuousClock.now - start
        guard case .failure(.timeout) = result else {
            Issue.record("expected timeout, got \(result)")
            return
        }
        #expect(transport.sends.value == 4, "the call was retried until the attempt the timeout ended")
        #expect(elapsed >= callTimeout)
        // Without the call timeout the fourth attempt would hang for an hour, past the suite's time limit (which
        // would end the call with .cancelled, not .timeout). The bound adds how late the machine ran tasks meanwhile:
        // about 1,200 tests start at once on two cores, and a timer's wake-up waits behind them. It is not scaled:
        // under BOTHAM_TEST_TIME_SCALE=10 a scaled margin would pass the suite's one-minute limit.
        #expect(elapsed < callTimeout + .seconds(15) + TestTimeScale.schedulingDelay(since: start), "took \(elapsed)")
    }

    @Test("Without callTimeout the same call runs until its retry budget is spent")
    func withoutCallTimeoutTheBudgetEndsTheCall() async throws {
        let transport = SlowFailingTransport(delay: .milliseconds(5))
        let apiClient = Self.client(transport, callTimeout: nil, maxRetries: 3)
        let result = await apiClient.GET("/flaky")
        guard case .failure(.retryLimitExceeded(let attempts, _)) = result else {
            Issue.record("expected retryLimitExceeded, got \(result)")
            return
        }
        #expect(attempts == 4)
    }

    @Test("Call observers are told the call timed out, not that it was cancelled")
    func observersSeeTheTimeout() async throws {
        let observer = Observer()
        let apiClient = Self.client(
            SlowFailingTransport(delay: .seconds(30)), callTimeout: .milliseconds(100), observer: observer)
        _ = await apiClient.GET("/slow")
        let results = observer.results.values
        #expect(results.count == 1)
        guard case .failure(.timeout)? = results.first else {
            Issue.record("expected timeout, got \(results)")
            return
        }
    }

    @Test("Cancelling the caller before the call timeout still ends the call with cancelled")
    func callerCancellationStaysCancellation() async throws {
        let transport = SlowFailingTransport(delay: .seconds(30))
        let apiClient = Self.client(transport, callTimeout: .seconds(20))
        let call = Task { await apiClient.GET("/slow") }
        // Waits (bounded by the suite's time limit) for the call to reach the transport: no spinning, which held a
        // cooperative thread from the call itself on a loaded 2-core machine.
        var reached = transport.reached.stream.makeAsyncIterator()
        _ = await reached.next()
        call.cancel()
        let result = await awaitingCancellably(call)
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
    }

    @Test("A call that answers within callTimeout is returned as it is")
    func fastCallsAreUntouched() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .json(["ok": true]))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(callTimeout: .seconds(10)))
        let response = try await apiClient.GET("/ok").get()
        #expect(response.statusCode == 200)
    }

    @Test("A streamed call's body is bounded by callTimeout when stream(_:callTimeout:) is given none")
    func streamedBodiesAreBoundedByTheCallTimeout() async throws {
        let stub = StubHTTPClient(latency: .clock)
        stub.stub(with: .streamed(chunks: [StubChunk("first"), StubChunk("late", after: .seconds(30))]))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(callTimeout: .milliseconds(300)))
        let response = try await apiClient.stream(.get, "/feed")
        let start = ContinuousClock.now
        var ending: APIClientError?
        do {
            for try await _ in response.body {}
        } catch {
            ending = error
        }
        guard case .timeout? = ending else {
            Issue.record("expected the body to end with timeout, got \(String(describing: ending))")
            return
        }
        #expect(ContinuousClock.now - start < TestTimeScale.scaled(.seconds(5), since: start))
    }

    @Test("A streamed call whose head does not come within callTimeout throws timeout, and observers hear timeout")
    func streamedHeadTimeoutReachesObservers() async throws {
        let observer = Observer()
        let apiClient = Self.client(
            SlowFailingTransport(delay: .seconds(30)), callTimeout: .milliseconds(100), observer: observer)
        var thrown: APIClientError?
        do {
            _ = try await apiClient.stream(.get, "/feed")
        } catch {
            thrown = error
        }
        guard case .timeout? = thrown else {
            Issue.record("expected the stream to throw timeout, got \(String(describing: thrown))")
            return
        }
        let results = observer.results.values
        #expect(results.count == 1)
        guard case .failure(.timeout)? = results.first else {
            Issue.record("expected observers to hear timeout, got \(results)")
            return
        }
    }
}
