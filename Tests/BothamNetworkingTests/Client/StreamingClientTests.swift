import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

private typealias Support = StreamingTestSupport

private func data(_ text: String) -> Data { Data(text.utf8) }

/// Adds a header to every request.
private struct AddHeaderRequestInterceptor: BothamRequestInterceptor {
    let name: HTTPFieldName
    let value: String

    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        request.appendingHeaders([name: value])
    }
}

/// An onion interceptor that adds a header and records whether the response it got back was streamed.
private final class OnionHeaderInterceptor: HTTPInterceptor {
    let sawStreamedResponse = Support.Flag()

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let response = try await next(request.appendingHeaders(["X-Onion": "outer"]))
        if response.bodyStream != nil { sawStreamedResponse.set() }
        return response
    }
}

/// Retries a 503.
private struct RetryOn503: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        response.statusCode == 503 ? .retry : .proceed(response)
    }
}

@Suite("Streaming calls through BothamAPIClient", .timeLimit(.minutes(1)))
struct StreamingClientTests {
    let stubClient = StubHTTPClient()

    private func makeClient(_ httpClient: StubHTTPClient? = nil) -> BothamAPIClient {
        BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: httpClient ?? stubClient)
    }

    @Test("stream gives the head at once and the chunks in order")
    func headAndChunks() async throws {
        stubClient.stub(
            .method(.get) && .path("/events"),
            with: .streamed(
                statusCode: 200,
                headers: ["X-Stream": "yes", .contentType: "application/octet-stream"],
                chunks: [StubChunk("one"), StubChunk("two", after: .seconds(1)), StubChunk("three")]))
        let response = try await makeClient().stream(.get, "/events")
        #expect(response.head.statusCode == 200)
        #expect(response.head.headers["X-Stream"] == "yes")
        #expect(response.head.headers[.contentType] == "application/octet-stream")
        #expect(response.head.body.isEmpty)
        let (chunks, error) = await Support.readAll(response.body)
        #expect(error == nil)
        #expect(chunks == [data("one"), data("two"), data("three")])
        #expect(stubClient.virtualTimeElapsed == .seconds(1))
        #expect(stubClient.receivedRequests.first?.responseDestination == .stream)
    }

    @Test("A transport that answers with an in-memory body is streamed as one chunk")
    func inMemoryBodyIsOneChunk() async throws {
        stubClient.stub(with: .text("hello, world"))
        let response = try await makeClient().stream(.get, "/plain")
        #expect(response.head.statusCode == 200)
        #expect(response.head.headers[.contentType] == "text/plain; charset=utf-8")
        let (chunks, error) = await Support.readAll(response.body)
        #expect(error == nil)
        #expect(chunks == [data("hello, world")])
    }

    @Test("Request interceptors and the HTTPInterceptor onion run for streaming calls")
    func interceptorsRun() async throws {
        stubClient.stub(with: .streamed(chunks: [StubChunk("a"), StubChunk("b")]))
        let apiClient = makeClient()
        let onion = OnionHeaderInterceptor()
        apiClient.requestInterceptors.append(AddHeaderRequestInterceptor(name: "X-Request", value: "added"))
        apiClient.interceptors.append(onion)
        let response = try await apiClient.stream(.get, "/events")
        let sent = try #require(stubClient.receivedRequests.first)
        #expect(sent.headers["X-Request"] == "added")
        #expect(sent.headers["X-Onion"] == "outer")
        #expect(response.head.request.headers["X-Onion"] == "outer")
        #expect(onion.sawStreamedResponse.isSet)
        #expect(await Support.readAll(response.body).elements == [data("a"), data("b")])
    }

    @Test("A response interceptor's .retry on a streamed 503 leads to a second attempt whose stream is returned")
    func retryOn503() async throws {
        stubClient.stub(
            with: .streamed(statusCode: 503, chunks: [StubChunk("busy")]),
            .streamed(statusCode: 200, chunks: [StubChunk("ok-1"), StubChunk("ok-2")]))
        let apiClient = makeClient()
        apiClient.responseInterceptors.append(RetryOn503())
        let response = try await apiClient.stream(.get, "/events")
        #expect(response.head.statusCode == 200)
        #expect(stubClient.receivedRequests.count == 2)
        let (chunks, error) = await Support.readAll(response.body)
        #expect(error == nil)
        #expect(chunks == [data("ok-1"), data("ok-2")])
    }

    @Test("Validation rejecting a streamed 404 throws httpResponseError whose body holds the streamed bytes")
    func rejected404CarriesBody() async throws {
        stubClient.stub(
            with: .streamed(
                statusCode: 404, headers: [.contentType: "text/plain"],
                chunks: [StubChunk("not "), StubChunk("found", after: .milliseconds(10))]))
        var failure: APIClientError?
        do {
            _ = try await makeClient().stream(.get, "/missing")
        } catch {
            failure = error
        }
        guard case .httpResponseError(let response) = failure else {
            Issue.record("expected httpResponseError, got \(String(describing: failure))")
            return
        }
        #expect(response.statusCode == 404)
        #expect(String(decoding: response.body, as: UTF8.self) == "not found")
    }

    @Test("A failure mid-stream ends the loop with that error after the earlier chunks")
    func failureMidStream() async throws {
        stubClient.stub(
            with: .streamed(
                chunks: [StubChunk("a"), StubChunk("b")],
                end: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost)))))
        let response = try await makeClient().stream(.get, "/events")
        var chunks: [Data] = []
        var failure: APIClientError?
        do {
            for try await chunk in response.body { chunks.append(chunk) }
        } catch {
            failure = error
        }
        #expect(chunks == [data("a"), data("b")])
        #expect(Support.isNetworkError(failure, kind: .connectionLost), "got \(String(describing: failure))")
    }

    @Test("A deadline ends a stream whose next chunk is late with .timeout, long before the chunk")
    func deadlineEndsStream() async throws {
        let realStub = StubHTTPClient(latency: .clock)
        realStub.stub(
            with: .streamed(chunks: [StubChunk("first"), StubChunk("second", after: .seconds(60))])
        )
        let start = ContinuousClock.now
        let response = try await makeClient(realStub).stream(.get, "/slow", callTimeout: .milliseconds(200))
        let (chunks, error) = await Support.readAll(response.body)
        let elapsed = ContinuousClock.now - start
        #expect(chunks == [data("first")])
        #expect(Support.isTimeout(error), "got \(String(describing: error))")
        // Far from the 60 s the stub would take (the 200 ms deadline can be late on a loaded machine, not by a minute).
        #expect(elapsed < .seconds(20) + TestTimeScale.schedulingDelay(since: start), "took \(elapsed)")
    }

    @Test("A deadline that runs out before the head ends the call with .timeout")
    func deadlineBeforeHead() async throws {
        let realStub = StubHTTPClient(latency: .clock)
        realStub.stub(
            with: StubResponse.streamed(chunks: [StubChunk("late")]).delayed(by: .seconds(60)))
        let start = ContinuousClock.now
        var failure: APIClientError?
        do {
            _ = try await makeClient(realStub).stream(.get, "/slow", callTimeout: .milliseconds(200))
        } catch {
            failure = error
        }
        let elapsed = ContinuousClock.now - start
        #expect(Support.isTimeout(failure), "got \(String(describing: failure))")
        // Far from the 60 s the stub would take (the 200 ms deadline can be late on a loaded machine, not by a minute).
        #expect(elapsed < .seconds(20) + TestTimeScale.schedulingDelay(since: start), "took \(elapsed)")
    }

    @Test("A deadline longer than the stream changes nothing")
    func deadlineNotReached() async throws {
        stubClient.stub(with: .streamed(chunks: [StubChunk("a"), StubChunk("b")]))
        let response = try await makeClient().stream(.get, "/events", callTimeout: .seconds(30))
        let (chunks, error) = await Support.readAll(response.body)
        #expect(error == nil)
        #expect(chunks == [data("a"), data("b")])
    }

    @Test("response.events parses a streamed text/event-stream")
    func responseEvents() async throws {
        stubClient.stub(
            with: .streamed(
                headers: [.contentType: "text/event-stream"],
                chunks: [
                    StubChunk(": welcome\nretry: 10\nid: 1\nevent: tick\nda"),
                    StubChunk("ta: a\n\ndata: b\n", after: .milliseconds(5)),
                    StubChunk("\ndata: unfinished"),
                ]))
        let response = try await makeClient().stream(.get, "/events")
        let (events, error) = await Support.readAll(response.events)
        #expect(error == nil)
        #expect(
            events == [
                ServerSentEvent(type: "tick", data: "a", id: "1"),
                ServerSentEvent(type: "message", data: "b", id: "1"),
            ])
    }

    @Test("response.lines and collected() read a streamed body")
    func linesAndCollected() async throws {
        stubClient.stub(with: .streamed(chunks: [StubChunk("one\ntw"), StubChunk("o\r\nthree")]))
        let apiClient = makeClient()
        let lines = await Support.readAll(try await apiClient.stream(.get, "/lines").lines)
        #expect(lines.elements == ["one", "two", "three"])
        let collected = try await apiClient.stream(.get, "/lines").collected()
        #expect(collected.body == data("one\ntwo\r\nthree"))
        #expect(collected.statusCode == 200)
    }
}
