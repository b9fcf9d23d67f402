import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@Suite("RequestCoalescingInterceptor", .timeLimit(.minutes(1)))
struct RequestCoalescingTests {
    @Test("100 concurrent identical GETs share one exchange: one request is sent and all 100 get 200 with the body")
    func hundredShareOne() async throws {
        let fixture = CoalescingFixture()
        let calls = fixture.startGETs(100)
        try #require(await fixture.waitUntil(waiting: 100, held: 1))
        #expect(fixture.coalescer.inFlightExchangeCount == 1)

        fixture.transport.release()
        let results = await results(of: calls)

        #expect(fixture.transport.sendCount == 1)
        #expect(results.count == 100)
        for result in results {
            let response = try result.get()
            #expect(response.statusCode == 200)
            #expect(response.body == Data("body for none".utf8))
        }
        #expect(fixture.isEmpty)
    }

    @Test(
        "requests that differ in a credential field are sent separately",
        arguments: [HTTPFieldName.authorization, .proxyAuthorization, .cookie])
    func credentialsKeepRequestsApart(field: HTTPFieldName) async throws {
        let fixture = CoalescingFixture()
        // Calls 0 and 1 carry user a's credential, call 2 user b's: two exchanges.
        let calls = fixture.startGETs(3) { index in [field: index < 2 ? "user-a" : "user-b"] }
        try #require(await fixture.waitUntil(waiting: 3, held: 2))

        fixture.transport.release()
        let results = await results(of: calls)

        #expect(fixture.transport.sendCount == 2)
        let sent = fixture.transport.requests.compactMap { $0.headers[field] }.sorted()
        #expect(sent == ["user-a", "user-b"])
        for (index, result) in results.enumerated() {
            #expect(try result.get().request.headers[field] == (index < 2 ? "user-a" : "user-b"))
        }
        #expect(fixture.isEmpty)
    }

    @Test("a field named by Vary in the last response keeps requests apart; an equal value still shares")
    func varyNamedFieldKeepsRequestsApart() async throws {
        let fixture = CoalescingFixture { request throws(APIClientError) in
            try await CoalescingFixture.echo(request).withHeaders(["Vary": "Accept-Encoding, accept-language"])
        }
        let teacher = fixture.startGETs(1)  // its response teaches the coalescer the Vary names
        try #require(await fixture.waitUntil(waiting: 1, held: 1))
        fixture.transport.release()
        _ = try await awaitingCancellably(teacher[0]).get()

        let languages = ["en", "en", "fr"]
        let calls = fixture.startGETs(3) { ["Accept-Language": languages[$0]] }
        try #require(await fixture.waitUntil(waiting: 3, held: 2))
        fixture.transport.release()
        let results = await results(of: calls)

        #expect(fixture.transport.sendCount == 3)
        for (index, result) in results.enumerated() {
            #expect(try result.get().body == Data("body for \(languages[index])".utf8))
        }
        #expect(fixture.isEmpty)
    }

    @Test("a caller that joined before Vary was known and differs in a varied field is sent on its own")
    func firstContactVaryMismatchResends() async throws {
        let fixture = CoalescingFixture { request throws(APIClientError) in
            try await CoalescingFixture.echo(request).withHeaders(["Vary": "Accept-Language"])
        }
        let languages = ["en", "fr", "en"]
        let first = fixture.startGETs(1) { _ in ["Accept-Language": "en"] }
        try #require(await fixture.waitUntil(waiting: 1, held: 1))
        let others = fixture.startGETs(2) { ["Accept-Language": languages[$0 + 1]] }
        try #require(await fixture.waitUntil(waiting: 3, held: 1))

        fixture.transport.open()
        let results = await results(of: first + others)

        // The fr caller learned from the shared answer that it was not for it, and sent its own request.
        #expect(fixture.transport.sendCount == 2)
        #expect(fixture.transport.requests.map { $0.headers["Accept-Language"] } == ["en", "fr"])
        for (index, result) in results.enumerated() {
            #expect(try result.get().body == Data("body for \(languages[index])".utf8))
        }
        #expect(fixture.isEmpty)
    }

    @Test("after a Vary: * response no request to that URL is coalesced")
    func varyStarNeverCoalesces() async throws {
        let fixture = CoalescingFixture { request throws(APIClientError) in
            try await CoalescingFixture.echo(request).withHeaders(["Vary": "*"])
        }
        let first = fixture.startGETs(1)
        try #require(await fixture.waitUntil(waiting: 1, held: 1))
        fixture.transport.release()
        _ = try await awaitingCancellably(first[0]).get()

        let calls = fixture.startGETs(3)
        try #require(await eventually { fixture.transport.heldCount == 3 })
        #expect(fixture.coalescer.waitingCallCount == 0)
        fixture.transport.release()
        for result in await results(of: calls) { #expect(try result.get().statusCode == 200) }
        #expect(fixture.transport.sendCount == 4)
    }

    @Test("a field named in keyFields keeps requests apart")
    func keyFieldsKeepRequestsApart() async throws {
        let fixture = CoalescingFixture(coalescer: RequestCoalescingInterceptor(keyFields: ["X-Tenant"]))
        let calls = fixture.startGETs(4) { ["X-Tenant": $0 % 2 == 0 ? "red" : "blue"] }
        try #require(await fixture.waitUntil(waiting: 4, held: 2))
        fixture.transport.release()
        _ = await results(of: calls)
        #expect(fixture.transport.sendCount == 2)
    }

    @Test("every caller gets its own request in the response, and only joiners are marked as joined")
    func eachCallerGetsItsOwnRequest() async throws {
        let observer = JoinedRecorder()
        let fixture = CoalescingFixture(observers: [observer])
        fixture.apiClient.interceptors.append(SignInside())
        let first = fixture.startGETs(1) { _ in ["X-Trace": "0"] }
        try #require(await fixture.waitUntil(waiting: 1, held: 1))
        let others = fixture.startGETs(2) { ["X-Trace": "\($0 + 1)"] }
        try #require(await fixture.waitUntil(waiting: 3, held: 1))
        fixture.transport.release()
        let results = await results(of: first + others)

        #expect(fixture.transport.sendCount == 1)
        for (index, result) in results.enumerated() {
            let response = try result.get()
            #expect(response.request.headers["X-Trace"] == "\(index)")
            // The starter's response is the chain's (its request as signed inside); a joiner's carries its own.
            #expect(response.request.headers["X-Signed"] == (index == 0 ? "yes" : nil))
            #expect(response.url == URL(string: "https://coalescing.test/feed"))
        }
        #expect(observer.joined.values.sorted { !$0 && $1 } == [false, true, true])
    }

    @Test(
        "an interceptor outside it runs once per call; one inside it and a network interceptor run once per exchange, in the starting call's context"
    )
    func placement() async throws {
        let observer = JoinedRecorder()
        let outside = CallIDRecorder()
        let fixture = CoalescingFixture(observers: [observer], outside: [outside])
        let inside = CallIDRecorder()
        let network = CallIDRecorder()
        fixture.apiClient.interceptors.append(inside)
        fixture.apiClient.networkInterceptors.append(network)

        let calls = fixture.startGETs(4)
        try #require(await fixture.waitUntil(waiting: 4, held: 1))
        fixture.transport.release()
        _ = await results(of: calls)

        #expect(Set(outside.ids.values).count == 4)
        #expect(!outside.ids.values.contains(0))
        #expect(inside.ids.values == observer.starters.values)
        #expect(network.ids.values == observer.starters.values)
        #expect(observer.joined.count == 4)
        #expect(observer.starters.count == 1)
    }

    @Test("a caller's callTimeout ends only that caller, with .timeout; the others get the answer")
    func callTimeoutEndsOneCaller() async throws {
        let fixture = CoalescingFixture()
        let hurried = BothamAPIClient(
            baseEndpoint: "https://coalescing.test", httpClient: fixture.transport,
            configuration: .init(maxRetries: 0, validation: .acceptAll, callTimeout: .milliseconds(50)))
        hurried.interceptors.append(fixture.coalescer)
        let patient = fixture.startGETs(2)
        try #require(await fixture.waitUntil(waiting: 2, held: 1))

        let result = await hurried.GET("/feed")

        guard case .failure(.timeout) = result else {
            Issue.record("expected timeout, got \(result)")
            return
        }
        #expect(fixture.coalescer.waitingCallCount == 2)
        fixture.transport.release()
        for call in patient { #expect(try await awaitingCancellably(call).get().statusCode == 200) }
        #expect(fixture.transport.sendCount == 1)
    }

    @Test("cancelling every caller but one: the cancelled get .cancelled at once, the last one gets 200 from one send")
    func cancelAllButOne() async throws {
        let fixture = CoalescingFixture()
        let starter = fixture.startGETs(1)
        try #require(await fixture.waitUntil(waiting: 1, held: 1))
        let others = fixture.startGETs(4)
        try #require(await fixture.waitUntil(waiting: 5, held: 1))

        // The starter is among the cancelled: the exchange it started goes on for the last caller.
        let cancelled = starter + others.dropLast()
        for call in cancelled { call.cancel() }
        for result in await results(of: Array(cancelled)) {
            guard case .failure(.cancelled) = result else {
                Issue.record("expected cancelled, got \(result)")
                continue
            }
        }
        #expect(fixture.coalescer.waitingCallCount == 1)
        #expect(fixture.transport.heldCount == 1)
        #expect(fixture.transport.cancelledCount == 0)

        fixture.transport.release()
        let last = try await awaitingCancellably(others[3]).get()
        #expect(last.statusCode == 200)
        #expect(fixture.transport.sendCount == 1)
        #expect(fixture.isEmpty)
    }

    @Test("cancelling every caller cancels the exchange and leaves the table empty")
    func cancelAll() async throws {
        let fixture = CoalescingFixture()
        let calls = fixture.startGETs(5)
        try #require(await fixture.waitUntil(waiting: 5, held: 1))

        for call in calls { call.cancel() }
        for result in await results(of: calls) {
            guard case .failure(.cancelled) = result else {
                Issue.record("expected cancelled, got \(result)")
                continue
            }
        }
        #expect(await eventually { fixture.transport.cancelledCount == 1 })
        #expect(fixture.isEmpty)

        // The next identical call starts a new exchange instead of joining the cancelled one.
        fixture.transport.open()
        #expect(try await fixture.apiClient.GET("/feed").get().statusCode == 200)
        #expect(fixture.transport.sendCount == 2)
    }

    @Test("a failure of the exchange reaches every waiter")
    func errorReachesEveryWaiter() async throws {
        let fixture = CoalescingFixture { _ throws(APIClientError) in
            throw .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: nil))
        }
        let calls = fixture.startGETs(10)
        try #require(await fixture.waitUntil(waiting: 10, held: 1))
        fixture.transport.release()

        for result in await results(of: calls) {
            guard case .failure(.networkError(let failure)) = result else {
                Issue.record("expected a network error, got \(result)")
                continue
            }
            #expect(failure.kind == .connectionLost)
        }
        #expect(fixture.transport.sendCount == 1)
        #expect(fixture.isEmpty)
    }

    @Test("retries of callers that got the same 503 share one new exchange")
    func retriesCoalesce() async throws {
        let sends = Counter()
        let fixture = CoalescingFixture(maxRetries: 1) { request throws(APIClientError) in
            sends.increment()
            return HTTPResponse(statusCode: sends.value == 1 ? 503 : 200, body: Data("ok".utf8), request: request)
        }
        fixture.apiClient.responseInterceptors.append(RetryOn503())
        let calls = fixture.startGETs(5)
        try #require(await fixture.waitUntil(waiting: 5, held: 1))
        fixture.transport.release()
        try #require(await fixture.waitUntil(waiting: 5, held: 1))
        fixture.transport.release()

        for result in await results(of: calls) { #expect(try result.get().statusCode == 200) }
        #expect(fixture.transport.sendCount == 2)
        #expect(fixture.isEmpty)
    }

    @Test("after rounds of calls that succeed, fail and are cancelled, no entry is left")
    func noEntriesLeft() async throws {
        let fixture = CoalescingFixture { request throws(APIClientError) in
            guard request.path != "/fails" else { throw .timeout }
            return try await CoalescingFixture.echo(request)
        }
        for round in 0..<5 {
            let paths = ["/a", "/b", "/fails", "/cancelled"]
            var calls: [String: [Task<Result<HTTPResponse, APIClientError>, Never>]] = [:]
            for path in paths { calls[path] = fixture.startGETs(3, path) }
            try #require(await fixture.waitUntil(waiting: 12, held: 4), "round \(round)")
            for call in calls["/cancelled"] ?? [] { call.cancel() }
            try #require(await eventually { fixture.transport.cancelledCount == round + 1 })
            fixture.transport.release()
            for path in paths { _ = await results(of: calls[path] ?? []) }
            #expect(fixture.isEmpty, "round \(round)")
        }
        #expect(fixture.transport.sendCount == 20)
    }
}

/// Adds `X-Signed: yes` inside the coalescer, as a signer would.
private struct SignInside: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader("X-Signed", "yes"))
    }
}

/// Asks for one more attempt on a 503.
private struct RetryOn503: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        response.statusCode == 503 ? .retry : .proceed(response)
    }
}
