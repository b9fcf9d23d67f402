import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("TracingInterceptor", .timeLimit(.minutes(1)))
struct TracingInterceptorTests {
    let stub = StubHTTPClient()
    let tracer = RecordingTracer()

    func client(_ tracing: TracingInterceptor, maxRetries: Int = 3) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(
                maxRetries: maxRetries, retrier: RetryPolicy(jitter: .none),
                clock: VirtualClock(sleeping: .advancesClock)))
        apiClient.interceptors.append(tracing)
        return apiClient
    }

    func sentContexts() throws -> [TracingInterceptor.Context] {
        try stub.receivedRequests.map { request in
            let header = try #require(request.headers["traceparent"])
            #expect(isValidTraceparent(header), "\(header)")
            return try #require(
                TracingInterceptor.Context(traceparent: header, tracestate: request.headers["tracestate"]))
        }
    }

    @Test("Without a provider every call starts a new trace with random, valid ids")
    func randomIDs() async throws {
        stub.stub(with: .text("ok"))
        let apiClient = client(TracingInterceptor())
        _ = await apiClient.GET("/a")
        _ = await apiClient.GET("/b")
        let sent = try sentContexts()
        #expect(sent.count == 2)
        #expect(sent[0].trace != sent[1].trace)
        #expect(sent.allSatisfy { $0.flags == .sampled && $0.state == nil })
        #expect(stub.receivedRequests.allSatisfy { $0.headers["tracestate"] == nil })
    }

    @Test("The injected source draws the ids: trace, call span, then one span per attempt")
    func injectedIDs() async throws {
        stub.stub(with: .text("ok"))
        _ = await client(TracingInterceptor(ids: countingIDs(), context: { nil })).GET("/a")
        #expect(
            stub.receivedRequests.first?.headers["traceparent"]
                == "00-00000000000000010000000000000002-0000000000000004-01")
    }

    @Test("A provider's context is joined: its trace id, flags and tracestate are sent, with a new parent id")
    func providedContext() async throws {
        stub.stub(with: .text("ok"))
        let provided = try #require(
            TracingInterceptor.Context(
                traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", tracestate: "rojo=00f067aa"))
        let apiClient = client(TracingInterceptor(tracer: tracer, ids: countingIDs(), context: { provided }))
        _ = await apiClient.GET("/a")
        let sent = try #require(try sentContexts().first)
        #expect(sent.trace == provided.trace)
        #expect(sent.span != provided.span)
        #expect(sent.flags == [])
        #expect(stub.receivedRequests.first?.headers["tracestate"] == "rojo=00f067aa")
        // The call's span is a child of the provider's span; the attempt's, of the call's.
        let starts = tracer.events.values.filter(\.isStart)
        guard case .started(.call, _, _, let callSpan, let callParent, _) = starts.first,
            case .started(.attempt(1), _, _, let attemptSpan, let attemptParent, _) = starts.last
        else {
            Issue.record("unexpected spans: \(starts)")
            return
        }
        #expect(callParent == provided.span)
        #expect(attemptParent == callSpan)
        #expect(attemptSpan == sent.span)
    }

    @Test("Each retry sends a new parent id in the same trace, and the provider is read once per call")
    func retries() async throws {
        stub.stub(with: .text("busy", statusCode: 503), .text("busy", statusCode: 503), .text("ok"))
        let reads = Counter()
        let apiClient = client(
            TracingInterceptor {
                reads.increment()
                return nil
            })
        let result = await apiClient.GET("/a")
        #expect(result.statusCode == 200)
        let sent = try sentContexts()
        #expect(sent.count == 3)
        #expect(Set(sent.map(\.trace)).count == 1)
        #expect(Set(sent.map(\.span)).count == 3)
        #expect(reads.value == 1)
    }

    @Test("The call's span wraps its attempts' spans, each ended with its status, in order")
    func spanOrder() async throws {
        stub.stub(with: .text("busy", statusCode: 503), .text("ok"))
        let apiClient = client(TracingInterceptor(tracer: tracer, redactor: .default, ids: countingIDs()))
        _ = await apiClient.GET("/items", parameters: ["access_token": "SECRET", "page": "2"])
        let url = "https://api.example.com/items?access_token=REDACTED&page=2"
        let sent = try sentContexts()
        let trace = try #require(TraceID(high: 1, low: 2))
        let (callSpan, first, second) = (try #require(SpanID(3)), try #require(SpanID(4)), try #require(SpanID(5)))
        #expect(
            tracer.events.values == [
                .started(.call, name: "HTTP GET", url: url, spanID: callSpan, parentSpanID: nil, trace: trace),
                .started(.attempt(1), name: "GET", url: url, spanID: first, parentSpanID: callSpan, trace: trace),
                .ended(.attempt(1), statusCode: 503, errorKind: nil, attempts: 1),
                .started(.attempt(2), name: "GET", url: url, spanID: second, parentSpanID: callSpan, trace: trace),
                .ended(.attempt(2), statusCode: 200, errorKind: nil, attempts: 2),
                .ended(.call, statusCode: 200, errorKind: nil, attempts: 2),
            ])
        #expect(sent.map(\.span) == [first, second])
        #expect(tracer.parents.values == [nil, .call, .call])
    }

    @Test("Failures end the attempt's and the call's spans with the error")
    func failures() async throws {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))))
        let apiClient = client(TracingInterceptor(tracer: tracer), maxRetries: 0)
        _ = await apiClient.GET("/down")
        stub.stub(with: .text("missing", statusCode: 404))
        _ = await apiClient.GET("/missing")
        let ends = tracer.events.values.filter { !$0.isStart }
        #expect(
            ends == [
                .ended(.attempt(1), statusCode: nil, errorKind: "cannotConnect", attempts: 1),
                // The retry policy would retry it, but the budget is spent: the caller receives that.
                .ended(.call, statusCode: nil, errorKind: "retryLimitExceeded", attempts: 1),
                // The attempt received its 404; the call failed the client's validation with it.
                .ended(.attempt(1), statusCode: 404, errorKind: nil, attempts: 1),
                .ended(.call, statusCode: 404, errorKind: "http_404", attempts: 1),
            ])
    }

    @Test("A request's own traceparent and tracestate are sent untouched")
    func ownHeaderKept() async throws {
        stub.stub(with: .text("ok"))
        let apiClient = client(TracingInterceptor(tracer: tracer))
        let own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        _ = await apiClient.send(
            apiClient.request(.get, "/a", headers: ["traceparent": own, "tracestate": "mine=1"]))
        let request = try #require(stub.receivedRequests.first)
        #expect(request.headers.values(for: "traceparent") == [own])
        #expect(request.headers.values(for: "tracestate") == ["mine=1"])
        #expect(tracer.events.count == 4)
    }

    @Test("A tracer's span that chose its own ids is what the header carries")
    func bridgedIDs() async throws {
        struct OwnIDs: TracingInterceptor.Tracer {
            func startSpan(_ start: TracingInterceptor.SpanStart) -> any TracingInterceptor.Span { Span(start: start) }
            struct Span: TracingInterceptor.Span {
                let start: TracingInterceptor.SpanStart
                var traceContext: TracingInterceptor.Context? {
                    guard case .attempt = start.kind, let id = SpanID(0xFEED) else { return nil }
                    return start.traceContext.child(span: id)
                }
                func end(_ end: TracingInterceptor.SpanEnd) {}
            }
        }
        stub.stub(with: .text("ok"))
        _ = await client(TracingInterceptor(tracer: OwnIDs(), ids: countingIDs())).GET("/a")
        #expect(
            stub.receivedRequests.first?.headers["traceparent"]
                == "00-00000000000000010000000000000002-000000000000feed-01")
    }

    @Test("Concurrent calls keep their own traces: each call's attempts share one trace id no other call has")
    func concurrentCalls() async throws {
        stub.stub(with: .text("ok"))
        let apiClient = client(TracingInterceptor(tracer: tracer))
        apiClient.responseInterceptors.append(RetryFirstAttempt())
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 { group.addTask { _ = await apiClient.GET("/items/\(index)") } }
        }
        var traces: [String: Set<TraceID>] = [:]
        for request in stub.receivedRequests {
            let context = try #require(TracingInterceptor.Context(traceparent: request.headers["traceparent"] ?? ""))
            traces[request.path, default: []].insert(context.trace)
        }
        #expect(stub.receivedRequests.count == 40)
        #expect(traces.count == 20)
        #expect(traces.values.allSatisfy { $0.count == 1 })
        #expect(Set(traces.values.flatMap { $0 }).count == 20)
        #expect(tracer.events.count == 20 * 6)
        #expect(
            tracer.events.values.filter { $0 == .ended(.call, statusCode: 200, errorKind: nil, attempts: 2) }.count
                == 20)
    }
}

/// Retries every call's first attempt once.
private struct RetryFirstAttempt: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
        HTTPCallContext.current?.attempt == 1 ? .retry : .proceed(response)
    }
}
