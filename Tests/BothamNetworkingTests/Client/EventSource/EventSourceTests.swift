import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

private typealias Support = StreamingTestSupport

private let eventStreamHeaders: HTTPHeaders = [.contentType: "text/event-stream"]
private let connectionLost = APIClientError.networkError(APIClientError.NetworkFailure(kind: .connectionLost))
private let cannotConnect = APIClientError.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))
private let lastEventIDField = HTTPFieldName("Last-Event-ID")

/// A `text/event-stream` response whose body is `chunks`, ending as `end` says.
private func eventStream(_ chunks: String..., end: StubStreamEnd = .complete) -> StubResponse {
    .streamed(headers: eventStreamHeaders, chunks: chunks.map { StubChunk($0) }, end: end)
}

private let noContent = StubResponse.response(statusCode: 204)

/// What reading an event source produced.
private struct Run {
    var events: [ServerSentEvent] = []
    var error: APIClientError?
    /// `next()` returned `nil`.
    var finished = false
    var iterator: EventSource.AsyncIterator

    var data: [String] { events.map(\.data) }
}

/// Reads `source` until it ends, fails, or `limit` events have arrived (the sequence is endless by design).
private func read(_ source: EventSource, limit: Int = 20) async -> Run {
    var run = Run(iterator: source.makeAsyncIterator())
    do {
        while run.events.count < limit {
            guard let event = try await run.iterator.next() else {
                run.finished = true
                return run
            }
            run.events.append(event)
        }
    } catch {
        run.error = error
    }
    return run
}

/// Adds `Authorization: Bearer <n>`, with `n` counting up from 1, to every request it sees.
private final class CountingTokenInterceptor: BothamRequestInterceptor {
    private let counter = Counter()

    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        counter.increment()
        return request.withHeader(.authorization, "Bearer \(counter.value)")
    }
}

@Suite("EventSource reconnects as the WHATWG model says", .timeLimit(.minutes(1)))
struct EventSourceTests {
    let stubClient = StubHTTPClient()
    /// The client's clock: every reconnection wait is recorded in its `sleeps` and passes at once.
    private let clock = VirtualClock(sleeping: .advancesClock)
    let apiClient: BothamAPIClient

    init() {
        apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient, configuration: .init(clock: clock))
    }

    private func policy(
        maxConsecutiveFailures: Int = 8,
        defaultReconnectionTime: Duration = .seconds(3),
        maxReconnectionDelay: Duration = .seconds(60),
        jitter: RetryPolicy.Jitter = .none,
        lastEventID: String = ""
    ) -> EventSource.Policy {
        EventSource.Policy(
            defaultReconnectionTime: defaultReconnectionTime,
            maxReconnectionDelay: maxReconnectionDelay,
            maxConsecutiveFailures: maxConsecutiveFailures,
            jitter: jitter,
            random: .constant(1),
            lastEventID: lastEventID)
    }

    private var sentLastEventIDs: [String?] {
        stubClient.receivedRequests.map { $0.headers[lastEventIDField] }
    }

    @Test("After a drop the next request carries Last-Event-ID and the events are exactly 1, 2, 3, 4")
    func resumesAfterDrop() async throws {
        stubClient.stub(
            .path("/feed"),
            with: eventStream("id: 1\ndata: one\n\n", "id: 2\ndata: two\n\n", end: .failure(connectionLost)),
            eventStream("id: 3\ndata: three\n\nid: 4\n", "data: four\n\n"),
            noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.error == nil)
        #expect(run.finished)
        #expect(run.data == ["one", "two", "three", "four"])
        #expect(run.events.map(\.id) == ["1", "2", "3", "4"])
        #expect(sentLastEventIDs == [nil, "2", "4"])
        #expect(run.iterator.lastEventID == "4")
        #expect(run.iterator.connections == 3)
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])
    }

    @Test("A stream cut off by its timeout (a quiet stream past its idle timeout) is reconnected with Last-Event-ID")
    func reconnectsAfterTimeout() async throws {
        stubClient.stub(
            with: eventStream("id: 1\ndata: one\n\n", end: .failure(.timeout)),
            eventStream("id: 2\ndata: two\n\n"),
            noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.error == nil)
        #expect(run.finished)
        #expect(run.data == ["one", "two"])
        #expect(sentLastEventIDs == [nil, "1", "2"])
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])
    }

    @Test("An event cut off by the drop is not acknowledged: Last-Event-ID is the last complete event's")
    func partialEventNotAcknowledged() async throws {
        stubClient.stub(
            with: eventStream("id: 1\ndata: one\n\nid: 2\ndata: tw", end: .failure(connectionLost)),
            eventStream("id: 2\ndata: two\n\n"),
            noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.data == ["one", "two"])
        #expect(sentLastEventIDs == [nil, "1", "2"])
    }

    @Test("retry: 1500 in the stream makes the wait before reconnecting exactly 1.5 s")
    func retryFieldSetsWait() async throws {
        stubClient.stub(
            with: eventStream("retry: 1500\nid: 1\ndata: one\n\n", end: .failure(connectionLost)), noContent)
        let run = await read(
            apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy(jitter: .proportional(0.2))))
        #expect(run.data == ["one"])
        #expect(clock.sleeps == [.milliseconds(1500)])
        #expect(run.iterator.reconnectionTime == .milliseconds(1500))
    }

    @Test("The first request asks for text/event-stream with Cache-Control: no-cache and no Last-Event-ID")
    func firstRequestHeaders() async throws {
        stubClient.stub(with: noContent)
        _ = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        let first = try #require(stubClient.receivedRequests.first)
        #expect(first.method == .get)
        #expect(first.url?.absoluteString == "https://api.example.com/feed")
        #expect(first.headers[.accept] == "text/event-stream")
        #expect(first.headers[.cacheControl] == "no-cache")
        #expect(first.headers[lastEventIDField] == nil)
    }

    @Test("The caller's own Accept header is kept")
    func callerAcceptKept() async throws {
        stubClient.stub(with: noContent)
        let source = apiClient.eventSource(
            apiClient.request(.get, "/feed", headers: [.accept: "text/event-stream; q=1"]), policy: policy())
        _ = await read(source)
        #expect(stubClient.receivedRequests.first?.headers.values(for: .accept) == ["text/event-stream; q=1"])
    }

    @Test("The policy's lastEventID is sent on the first connection")
    func policyLastEventIDSentFirst() async throws {
        stubClient.stub(with: eventStream("data: resumed\n\n"), noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy(lastEventID: "41")))
        #expect(run.events == [ServerSentEvent(data: "resumed", id: "41")])
        #expect(sentLastEventIDs == ["41", "41"])
    }

    @Test("An empty id resets the last event ID, so the reconnection sends no Last-Event-ID")
    func emptyIDStopsLastEventID() async throws {
        stubClient.stub(
            with: eventStream("id: 5\ndata: a\n\nid\ndata: b\n\n", end: .failure(connectionLost)), noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.events == [ServerSentEvent(data: "a", id: "5"), ServerSentEvent(data: "b", id: nil)])
        #expect(sentLastEventIDs == [nil, nil])
    }

    @Test("A 204 ends the sequence normally")
    func noContentEnds() async throws {
        stubClient.stub(with: noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.finished)
        #expect(run.error == nil)
        #expect(run.events.isEmpty)
        #expect(stubClient.receivedRequests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("A 404 ends the sequence with httpResponseError")
    func notFoundEnds() async throws {
        stubClient.stub(with: .text("no such feed", statusCode: 404))
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        guard case .httpResponseError(let response) = run.error else {
            Issue.record("expected httpResponseError, got \(String(describing: run.error))")
            return
        }
        #expect(response.statusCode == 404)
        #expect(stubClient.receivedRequests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("A streamed 404 also ends the sequence with httpResponseError carrying its body")
    func streamedNotFoundEnds() async throws {
        stubClient.stub(with: .streamed(statusCode: 404, headers: eventStreamHeaders, chunks: [StubChunk("gone")]))
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        guard case .httpResponseError(let response) = run.error else {
            Issue.record("expected httpResponseError, got \(String(describing: run.error))")
            return
        }
        #expect(response.statusCode == 404)
        #expect(response.body == Data("gone".utf8))
        #expect(stubClient.receivedRequests.count == 1)
    }

    @Test("A 503 is retried after the reconnection time")
    func serviceUnavailableRetried() async throws {
        stubClient.stub(
            with: .text("busy", statusCode: 503), eventStream("id: 1\ndata: back\n\n"), noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.error == nil)
        #expect(run.data == ["back"])
        #expect(stubClient.receivedRequests.count == 3)
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])
    }

    @Test("A response that is not text/event-stream ends the sequence with parsingError")
    func wrongContentType() async throws {
        stubClient.stub(with: .streamed(headers: [.contentType: "application/json"], chunks: [StubChunk("{}")]))
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        guard case .parsingError(_, let underlying) = run.error else {
            Issue.record("expected parsingError, got \(String(describing: run.error))")
            return
        }
        #expect(underlying as? HTTPBodyStream.DecodingError == .notAnEventStream(contentType: "application/json"))
        #expect(stubClient.receivedRequests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("A response without Content-Type ends the sequence with parsingError")
    func missingContentType() async throws {
        stubClient.stub(with: .streamed(chunks: [StubChunk("data: x\n\n")]))
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        guard case .parsingError(_, let underlying) = run.error else {
            Issue.record("expected parsingError, got \(String(describing: run.error))")
            return
        }
        #expect(underlying as? HTTPBodyStream.DecodingError == .notAnEventStream(contentType: nil))
        #expect(run.events.isEmpty)
    }

    @Test("text/event-stream with parameters and another case is accepted")
    func contentTypeWithParameters() async throws {
        stubClient.stub(
            with: .streamed(
                headers: [.contentType: "Text/Event-Stream; charset=utf-8"], chunks: [StubChunk("data: x\n\n")]),
            noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.error == nil)
        #expect(run.data == ["x"])
    }

    @Test("Each reconnection goes through the request interceptors again, so a refreshed token is used")
    func tokenRefreshedOnReconnect() async throws {
        apiClient.requestInterceptors.append(CountingTokenInterceptor())
        stubClient.stub(
            with: eventStream("id: 1\ndata: a\n\n", end: .failure(connectionLost)),
            .failure(cannotConnect),
            eventStream("id: 2\ndata: b\n\n"),
            noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.data == ["a", "b"])
        #expect(
            stubClient.receivedRequests.map { $0.headers[.authorization] } == [
                "Bearer 1", "Bearer 2", "Bearer 3", "Bearer 4",
            ])
        #expect(sentLastEventIDs == [nil, "1", "1", "2"])
    }

    @Test("Repeated failures double the wait up to the maximum, then the sequence throws retryLimitExceeded")
    func repeatedFailuresBackOff() async throws {
        stubClient.stub(with: .failure(cannotConnect))
        let source = apiClient.eventSource(
            apiClient.request(.get, "/feed"),
            policy: policy(
                maxConsecutiveFailures: 5, defaultReconnectionTime: .seconds(1), maxReconnectionDelay: .seconds(5)))
        let run = await read(source)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        #expect(stubClient.receivedRequests.count == 6)
        guard case .retryLimitExceeded(let attempts, .failure(let last)) = run.error else {
            Issue.record("expected retryLimitExceeded, got \(String(describing: run.error))")
            return
        }
        #expect(attempts == 6)
        #expect(Support.isNetworkError(last, kind: .cannotConnect))
    }

    @Test("With the default 3 s, three failures wait 3, 6 and 12 s before retryLimitExceeded")
    func defaultBackOff() async throws {
        stubClient.stub(with: .failure(connectionLost))
        let run = await read(
            apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy(maxConsecutiveFailures: 3)))
        #expect(clock.sleeps == [.seconds(3), .seconds(6), .seconds(12)])
        guard case .retryLimitExceeded = run.error else {
            Issue.record("expected retryLimitExceeded, got \(String(describing: run.error))")
            return
        }
    }

    @Test("The stream's retry: is the base of the backoff after failures")
    func retryFieldIsBackOffBase() async throws {
        stubClient.stub(
            with: eventStream("retry: 100\n: no events\n", end: .failure(connectionLost)), .failure(cannotConnect))
        let run = await read(
            apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy(maxConsecutiveFailures: 3)))
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        guard case .retryLimitExceeded = run.error else {
            Issue.record("expected retryLimitExceeded, got \(String(describing: run.error))")
            return
        }
    }

    @Test("An event resets the failure count: the wait after it is the plain reconnection time again")
    func eventResetsFailures() async throws {
        stubClient.stub(
            with: .failure(cannotConnect), .failure(cannotConnect),
            eventStream("data: a\n\n", end: .failure(connectionLost)),
            .failure(cannotConnect), noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.data == ["a"])
        #expect(run.finished)
        #expect(clock.sleeps == [.seconds(3), .seconds(6), .seconds(3), .seconds(3)])
    }

    @Test("A clean end of the stream after events reconnects after the default 3 s")
    func cleanEndReconnects() async throws {
        stubClient.stub(with: eventStream("data: a\n\n", "data: b\n\n"), noContent)
        let run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.data == ["a", "b"])
        #expect(run.finished)
        #expect(clock.sleeps == [.seconds(3)])
        #expect(stubClient.receivedRequests.count == 2)
    }

    @Test("A stream that keeps ending without events counts as failing and ends with retryLimitExceeded")
    func emptyStreamsFail() async throws {
        stubClient.stub(with: eventStream(": ping\n\n"))
        let run = await read(
            apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy(maxConsecutiveFailures: 2)))
        #expect(run.events.isEmpty)
        #expect(clock.sleeps == [.seconds(3), .seconds(6)])
        #expect(stubClient.receivedRequests.count == 3)
        guard case .retryLimitExceeded = run.error else {
            Issue.record("expected retryLimitExceeded, got \(String(describing: run.error))")
            return
        }
    }

    @Test(
        "After a terminal error the event source is over: next() returns nil and connects no more",
        arguments: [404, 415])
    func terminalAfterError(status: Int) async throws {
        if status == 404 {
            stubClient.stub(with: .text("gone", statusCode: 404))
        } else {
            stubClient.stub(with: .streamed(headers: [.contentType: "application/json"], chunks: [StubChunk("{}")]))
        }
        var run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.error != nil)
        #expect(stubClient.receivedRequests.count == 1)
        var again: ServerSentEvent?
        var againError: APIClientError?
        do {
            again = try await run.iterator.next()
        } catch {
            againError = error
        }
        #expect(again == nil)
        #expect(againError == nil, "threw again: \(String(describing: againError))")
        #expect(stubClient.receivedRequests.count == 1, "connected again after the terminal error")
    }

    @Test("After a 204 the event source stays over")
    func finishedStaysFinished() async throws {
        stubClient.stub(with: noContent)
        var run = await read(apiClient.eventSource(apiClient.request(.get, "/feed"), policy: policy()))
        #expect(run.finished)
        #expect(try await run.iterator.next() == nil)
        #expect(stubClient.receivedRequests.count == 1)
    }

    @Test("Cancelling the task reading an event source ends it with .cancelled and connects no more")
    func cancellingReader() async throws {
        let realStub = StubHTTPClient(latency: .clock)
        realStub.stub(
            with: .streamed(
                headers: eventStreamHeaders,
                chunks: [StubChunk("data: first\n\n"), StubChunk("data: much later\n\n", after: .seconds(30))]))
        // The 30 s before the second chunk are waited on a clock nobody advances until the end.
        let manual = VirtualClock()
        let client = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: realStub, configuration: .init(clock: manual))
        let source = client.eventSource(client.request(.get, "/feed"), policy: policy())
        let (started, signal) = AsyncStream<Void>.makeStream()
        let reader = Task { () -> (ServerSentEvent?, APIClientError?) in
            var iterator = source.makeAsyncIterator()
            let first = try? await iterator.next()
            signal.yield()
            do {
                let next = try await iterator.next()
                return (first ?? nil, next.map { .invalidRequest(reason: "got \($0)") })
            } catch {
                return (first ?? nil, error as? APIClientError)
            }
        }
        for await _ in started { break }
        // Timed from the cancellation: the next event is 30 s away, and the reader must not wait for it.
        let start = ContinuousClock.now
        reader.cancel()
        let (first, error) = await awaitingCancellably(reader)
        #expect(first?.data == "first")
        #expect(Support.isCancelled(error), "got \(String(describing: error))")
        #expect(ContinuousClock.now - start < .seconds(10) + TestTimeScale.schedulingDelay(since: start))
        #expect(realStub.receivedRequests.count == 1)
        // The only wait on the clock may be the stub's 30 s before the second chunk: no reconnection wait.
        #expect(manual.sleeps.allSatisfy { $0 == .seconds(30) }, "\(manual.sleeps)")
        await manual.advance(by: .seconds(30))  // lets the stub's producer see the cancelled stream and end
    }
}
