import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

// The former spellings behave as what replaced them (CONTRIBUTING.md, "Versioning"). Swift Testing refuses deprecated
// tests, so the code using them lives in deprecated methods of FormerSpellings, which the tests reach through a
// protocol: no warning, and the old code is compiled exactly as a user wrote it.
@Suite("Deprecated spellings do what their replacements do", .timeLimit(.minutes(1)))
struct DeprecatedSpellingsTests {
    let former: any FormerSpellingsScenarios = FormerSpellings()

    @Test("retryStrategy, level and the URLSession limits' former names read and write what replaced them")
    func renamedSettings() { former.renamedSettings() }

    @Test("A retry sleeper set through the former spelling is what the retry loop waits through")
    func retrySleeperWaits() async throws { try await former.retrySleeperWaits() }

    @Test("An EventSource.Policy with a sleeper of its own waits through it")
    func eventFeedResumes() async throws { try await former.eventFeedResumes() }

    @Test("upload(data:) sends the data with its method and content type, reporting progress, as send(_:progress:)")
    func uploadSendsTheData() async throws { try await former.uploadSendsTheData() }

    @Test("removingHeader removes every field of that name, as withHeader(name, nil) does")
    func removingHeaderRemoves() { former.removingHeaderRemoves() }
}

protocol FormerSpellingsScenarios: Sendable {
    func renamedSettings()
    func retrySleeperWaits() async throws
    func eventFeedResumes() async throws
    func removingHeaderRemoves()
    func uploadSendsTheData() async throws
}

struct FormerSpellings: FormerSpellingsScenarios {
    @available(*, deprecated, message: "uses the deprecated spellings")
    func uploadSendsTheData() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("stored"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let reports = Recorder<TransferProgress>()

        let response = try await apiClient.upload(
            "/files", method: .put, data: Data("bytes".utf8), contentType: "text/plain",
            progress: { reports.append($0) }
        ).get()

        #expect(response.statusCode == 200)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.method == .put)
        #expect(try sent.bodyData() == Data("bytes".utf8))
        #expect(sent.headers[.contentType] == "text/plain")
        let last = try #require(reports.values.last)
        #expect(last.completedBytes == last.totalBytes)
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func removingHeaderRemoves() {
        let request = HTTPRequest(
            method: .get, baseEndpoint: "https://api.example.com", headers: ["Accept": "a", "X-Debug": "1"])
        #expect(request.removingHeader("x-debug") == request.withHeader("X-Debug", nil))
        #expect(request.removingHeader("X-Debug").headers == ["Accept": "a"])
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func renamedSettings() {
        var configuration = BothamAPIClient.Configuration()
        configuration.retryStrategy = RetryPolicy()
        #expect(configuration.retrier is RetryPolicy)
        var logging = LoggingInterceptor(level: .headers)
        #expect(logging.detail == .headers)
        logging.level = .body
        #expect(logging.detail == .body)
        var transport = URLSessionHTTPClient.Configuration(
            defaultTimeout: .seconds(30), totalDeadline: .seconds(120), maxResponseBytes: 50)
        #expect(transport.limits.attemptTimeout == .seconds(30))
        #expect(transport.limits.maxAttemptTimeout == .seconds(120))
        #expect(transport.limits.maxResponseBytes == 50)
        transport.maxFileResponseBytes = 70
        #expect(transport.limits.maxFileResponseBytes == 70)
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func retrySleeperWaits() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 200))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.configuration.retryStrategy = RetryPolicy(
            backoff: RetryPolicy.Backoff(baseDelay: .seconds(30), multiplier: 1, maxDelay: .seconds(30)), jitter: .none)
        let waits = Recorder<Duration>()
        apiClient.configuration.retrySleeper = RetrySleeper { waits.append($0) }

        let response = try await apiClient.GET("/status").get()

        #expect(response.statusCode == 200)
        #expect(waits.count == 1)
        #expect(waits.values.allSatisfy { $0 > .seconds(29) && $0 <= .seconds(30) })
    }

    // The previous release's README test, its sleeper recording the waits: an EventSource.Policy with a sleeper of its
    // own.
    @available(*, deprecated, message: "uses the deprecated spellings")
    func eventFeedResumes() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(
            with: .serverSentEvents(
                [
                    MockServerSentEvent(id: "1", data: "one"),
                    MockServerSentEvent(id: "2", data: "two", after: .seconds(1)),
                ],
                end: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost)))),
            .serverSentEvents([MockServerSentEvent(id: "3", data: "three")]),
            .response(statusCode: 204)
        )
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stubClient)
        let waits = Recorder<Duration>()
        let noWaiting = EventSource.Policy(sleeper: RetrySleeper { waits.append($0) })

        var received: [String] = []
        for try await event in apiClient.eventSource("/feed", policy: noWaiting) { received.append(event.data) }

        #expect(received == ["one", "two", "three"])
        #expect(stubClient.receivedRequests[1].headers["Last-Event-ID"] == "2")
        #expect(waits.values == [.seconds(3), .seconds(3)])
    }
}
