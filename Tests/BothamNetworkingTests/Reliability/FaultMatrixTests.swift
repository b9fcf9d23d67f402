import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The fault matrix published in docs/FaultMatrix.md: for each fault, the exact typed error, reached within its
/// deadline, and what the shipped retry policy does with it (retried faults spend the whole budget; the others end
/// after one attempt). Every case is bounded; none may crash or hang.
///
/// The deadlines are the document's, per attempt (the retry sleeps are injected and take no time), and are scaled only
/// by ``TestTimeScale`` (`BOTHAM_TEST_TIME_SCALE`, set under ThreadSanitizer).
@Suite("Fault matrix: each fault gives its documented error and retry behaviour", .serialized, .timeLimit(.minutes(1)))
struct FaultMatrixTests {
    /// Added to every deadline, beside the scheduling delay measured during the attempt: `swift test` runs suites in
    /// parallel on a 2-core machine, and a finished attempt can go unobserved for a while (socket faults themselves
    /// end in milliseconds).
    static let schedulingAllowance = Duration.seconds(2)

    /// A fault of the matrix: how the server misbehaves and what the caller must see.
    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let response: @Sendable () -> MockResponse
        let expected: APIClientError.NetworkFailure.Kind?
        let retried: Bool
        var transport = URLSessionHTTPClient.Configuration()
        var timeout: Duration = .seconds(3)
        /// How long one attempt may take (docs/FaultMatrix.md's "Deadline" column).
        var deadline: Duration = .seconds(2)

        var testDescription: String { name }
    }

    /// Measures every attempt that reaches the transport: when it started and how long it took.
    struct AttemptTimer: HTTPInterceptor {
        let attempts = Recorder<(start: ContinuousClock.Instant, duration: Duration)>()

        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            let start = ContinuousClock.now
            defer { attempts.append((start, ContinuousClock.now - start)) }
            return try await next(request)
        }
    }

    static let body = Data(repeating: 0x61, count: 4_096)

    static let faults: [Fault] = [
        Fault(
            name: "reset before the response",
            response: { MockResponse().withSocketPolicy(.resetConnection) },
            expected: .connectionLost,
            retried: true
        ),
        Fault(
            name: "closed before the response",
            response: { MockResponse().withSocketPolicy(.disconnectAtStart) },
            expected: .badServerResponse,
            retried: false
        ),
        Fault(
            name: "reset after the headers",
            response: { MockResponse().withBody(body).withSocketPolicy(.disconnectAfterHeaders) },
            expected: .connectionLost,
            retried: true
        ),
        Fault(
            name: "reset mid-body",
            response: { MockResponse().withBody(body).withSocketPolicy(.disconnectDuringBody) },
            expected: .connectionLost,
            retried: true
        ),
        Fault(
            name: "malformed status line",
            response: { MockResponse().withSocketPolicy(.malformedStatusLine) },
            expected: .badServerResponse,
            retried: false
        ),
        Fault(
            name: "truncated chunked body",
            response: { MockResponse().withBody(body).chunked(chunkSize: 512).withSocketPolicy(.truncatedChunkedBody) },
            expected: .connectionLost,
            retried: true
        ),
        Fault(
            name: "Content-Length larger than the body",
            response: { MockResponse().withBody(body).withSocketPolicy(.wrongContentLength) },
            expected: .connectionLost,
            retried: true
        ),
        Fault(
            name: "stall past the request's timeout",
            response: { MockResponse().withSocketPolicy(.noResponse) },
            expected: nil,
            retried: true,
            timeout: .milliseconds(300),
            deadline: .milliseconds(300 + 1_200)
        ),
        Fault(
            name: "slow drip past the total deadline",
            response: { MockResponse().withBody(body).throttled(bytes: 64, per: .milliseconds(100)) },
            expected: nil,
            retried: true,
            transport: .init(limits: .init(maxAttemptTimeout: .milliseconds(500))),
            deadline: .milliseconds(500 + 1_200)
        ),
        Fault(
            name: "body larger than maxResponseBytes",
            response: { MockResponse().withBody(Data(repeating: 0x62, count: 512 * 1_024)) },
            expected: .responseTooLarge,
            retried: false,
            transport: .init(limits: .init(maxResponseBytes: 64 * 1_024))
        ),
        Fault(
            name: "invalid header line",
            response: { MockResponse().withHeader("Bad Header\u{1}", "x").withBody(body) },
            expected: .badServerResponse,
            retried: false
        ),
        Fault(
            name: "oversized headers",
            response: { MockResponse().withHeader("X-Huge", String(repeating: "h", count: 300 * 1_024)) },
            expected: .badServerResponse,
            retried: false
        ),
        Fault(
            name: "redirect loop",
            response: { MockResponse(statusCode: 302).withHeader("Location", "/loop") },
            expected: .tooManyRedirects,
            retried: false,
            transport: .init(redirectPolicy: .followAtMost(5))
        ),
    ]

    @Test(
        "Each fault ends with its typed error within its deadline, retried only when it is worth it", arguments: faults)
    func fault(_ fault: Fault) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in fault.response() }
        let clock = VirtualClock(sleeping: .advancesClock)
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: URLSessionHTTPClient(configuration: fault.transport),
            configuration: .init(
                maxRetries: 2,
                retrier: RetryPolicy(jitter: .none),
                clock: clock
            )
        )
        let timer = AttemptTimer()
        apiClient.interceptors.append(timer)
        let start = ContinuousClock.now
        let result = await apiClient.send(apiClient.request(.get, "/loop").withTimeout(fault.timeout))
        let elapsed = ContinuousClock.now - start

        let final: APIClientError
        switch result {
        case .success(let response):
            Issue.record("\(fault.name): expected an error, got \(response.statusCode)")
            return
        case .failure(.retryLimitExceeded(let attempts, .failure(let last))):
            #expect(fault.retried, "\(fault.name) must not be retried")
            #expect(attempts == 3)
            final = last
        case .failure(let error):
            #expect(!fault.retried, "\(fault.name) must be retried: \(error)")
            final = error
        }
        switch (fault.expected, final) {
        case (nil, .timeout): break
        case (let kind?, .networkError(let failure)):
            #expect(failure.kind == kind, "\(fault.name): \(failure)")
        default: Issue.record("\(fault.name): expected \(String(describing: fault.expected)), got \(final)")
        }
        #expect(clock.sleeps.count == (fault.retried ? 2 : 0))
        let attempts = timer.attempts.values
        #expect(attempts.count == (fault.retried ? 3 : 1))
        for (attemptStart, duration) in attempts {
            #expect(
                duration < TestTimeScale.scaled(fault.deadline, since: attemptStart) + Self.schedulingAllowance,
                "\(fault.name): an attempt took \(duration)")
        }
        #expect(
            elapsed < TestTimeScale.scaled(fault.deadline * attempts.count, since: start) + Self.schedulingAllowance,
            "\(fault.name) took \(elapsed)")
    }

    @Test("Connection refused is cannotConnect within 2 s an attempt, and the retry policy retries it")
    func connectionRefused() async throws {
        let server = try MockWebServer()
        let endpoint = server.baseURL.absoluteString
        server.shutdown()
        let apiClient = BothamAPIClient(
            baseEndpoint: endpoint,
            configuration: .init(
                maxRetries: 1,
                retrier: RetryPolicy(jitter: .none),
                clock: VirtualClock(sleeping: .advancesClock)
            )
        )
        let timer = AttemptTimer()
        apiClient.interceptors.append(timer)
        let result = await apiClient.GET("/x")
        guard case .failure(.retryLimitExceeded(2, .failure(.networkError(let failure)))) = result else {
            Issue.record("expected two attempts ending in a network error, got \(result)")
            return
        }
        #expect(failure.kind == .cannotConnect)
        let attempts = timer.attempts.values
        #expect(attempts.count == 2)
        for (attemptStart, duration) in attempts {
            #expect(
                duration < TestTimeScale.scaled(.seconds(2), since: attemptStart) + Self.schedulingAllowance,
                "an attempt took \(duration)")
        }
    }

    @Test("A 401 with WWW-Authenticate comes back within 1 s as httpResponseError, and is not retried")
    func unauthorizedWithChallenge() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in MockResponse(statusCode: 401).withHeader("WWW-Authenticate", #"Basic realm="r""#) }
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            configuration: .init(retrier: RetryPolicy(jitter: .none), clock: VirtualClock(sleeping: .advancesClock))
        )
        let start = ContinuousClock.now
        let result = await apiClient.GET("/private")
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < TestTimeScale.scaled(.seconds(1), during: elapsed), "took \(elapsed)")
        guard case .failure(.httpResponseError(let response)) = result else {
            Issue.record("expected httpResponseError(401), got \(result)")
            return
        }
        #expect(response.statusCode == 401)
        #expect(server.requestCount == 1)
    }

    @Test("A 503 is retried by the policy and the budget ends with the last response")
    func serviceUnavailable() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in MockResponse(statusCode: 503) }
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            configuration: .init(
                maxRetries: 2,
                retrier: RetryPolicy(jitter: .none),
                clock: VirtualClock(sleeping: .advancesClock)
            )
        )
        let result = await apiClient.GET("/busy")
        guard case .failure(.retryLimitExceeded(3, .success(let last))) = result else {
            Issue.record("expected retryLimitExceeded after 3 attempts, got \(result)")
            return
        }
        #expect(last.statusCode == 503)
        #expect(server.requestCount == 3)
    }

    @Test("A caller who cancels gets .cancelled within 1 s of cancelling, and the call is not retried")
    func callerCancels() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in MockResponse().withSocketPolicy(.noResponse) }
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            configuration: .init(
                maxRetries: 2,
                retrier: RetryPolicy(jitter: .none),
                clock: VirtualClock(sleeping: .advancesClock)
            )
        )
        let call = Task { await apiClient.GET("/stall") }
        _ = try await server.takeRequest()
        let start = ContinuousClock.now
        call.cancel()
        let result = await awaitingCancellably(call)
        let elapsed = ContinuousClock.now - start

        guard case .failure(.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
        #expect(elapsed < TestTimeScale.scaled(.seconds(1), during: elapsed), "took \(elapsed)")
        #expect(server.requestCount == 1)
    }
}
