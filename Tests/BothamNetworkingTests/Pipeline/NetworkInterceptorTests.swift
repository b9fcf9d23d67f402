import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Records `name` (and what it saw) for requests to `host` only, then calls `next` with the request it was given.
private struct RecordingInterceptor: HTTPInterceptor {
    let name: String
    let log: Recorder<String>
    let host: String?
    var seen: Recorder<HTTPRequest>?

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        guard host == nil || request.url?.host == host else { return try await next(request) }
        log.append("\(name):attempt\(context.attempt)")
        seen?.append(request)
        return try await next(request)
    }
}

/// Signs every request: `X-Signature` over the method, the URL and the header names it carries.
private struct Signer: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        let url = try request.resolvedURL().absoluteString
        return try await next(request.withHeader("X-Signature", "sig(\(request.method.rawValue) \(url))"))
    }
}

/// A transport that says it would add `X-Transport: own` (and `Accept: */*`), as ours do with their defaults.
private struct TransportWithDefaults: TransportHeaderDefaults {
    let stub: StubHTTPClient

    func defaultHeaders(for request: HTTPRequest) -> HTTPHeaders {
        ["X-Transport": "own", "Accept": "*/*"]
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await stub.send(request.prepared(for: self))
    }
}

@Suite("Network interceptors run innermost and see the request as it is sent", .timeLimit(.minutes(1)))
struct NetworkInterceptorTests {
    let stub = StubHTTPClient()
    let log = Recorder<String>()
    let endpoint = uniqueEndpoint()
    var host: String? { URL(string: endpoint)?.host }

    init() {
        stub.stub(with: .text("ok"))
    }

    private func makeClient(_ transport: (any HTTPClient)? = nil) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: endpoint, httpClient: transport ?? stub,
            configuration: .init(clock: VirtualClock(sleeping: .advancesClock)))
    }

    @Test(
        "they run after request interceptors, preparation and every interceptor (local then global), before the response interceptors"
    )
    func order() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "local", log: log, host: host))
        apiClient.networkInterceptors.append(RecordingInterceptor(name: "network-local", log: log, host: host))
        apiClient.interceptors.append(RecordingInterceptor(name: "onion-local", log: log, host: host))
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "local", log: log, host: host))
        let globalNetwork = BothamAPIClient.globalNetworkInterceptors.append(
            RecordingInterceptor(name: "network-global", log: log, host: host))
        let globalOnion = BothamAPIClient.globalInterceptors.append(
            RecordingInterceptor(name: "onion-global", log: log, host: host))
        defer {
            BothamAPIClient.globalNetworkInterceptors.remove(globalNetwork)
            BothamAPIClient.globalInterceptors.remove(globalOnion)
        }

        _ = try await apiClient.GET("/x").get()

        #expect(
            log.values == [
                "request:local", "onion-local:attempt1", "onion-global:attempt1", "network-local:attempt1",
                "network-global:attempt1", "response:local",
            ])
    }

    @Test(
        "a logger among the network interceptors logs the signature of a signer among the interceptors, whatever the order they were added in",
        arguments: [true, false])
    func loggerSeesTheSignature(loggerFirst: Bool) async throws {
        let apiClient = makeClient()
        let lines = Recorder<String>()
        // `Redactor.none`: the default one hides `X-Signature` (its name contains "signature"), and this test must
        // see the value the logger was given.
        let logger = LoggingInterceptor(
            detail: .headers, sink: LoggingInterceptor.Sink { _, message in lines.append(message) }, redactor: .none)
        if loggerFirst {
            apiClient.networkInterceptors.append(logger)
            apiClient.interceptors.append(Signer())
        } else {
            apiClient.interceptors.append(Signer())
            apiClient.networkInterceptors.append(logger)
        }

        _ = try await apiClient.GET("/objects/1").get()

        let signature = "sig(GET \(endpoint)/objects/1)"
        #expect(stub.receivedRequests.first?.headers["X-Signature"] == signature)
        #expect(lines.values.contains { $0.contains("X-Signature: \(signature)") })
    }

    @Test(
        "a logger among the network interceptors with the default redactor logs the Authorization a request interceptor added as REDACTED"
    )
    func loggerRedactsWhatRequestInterceptorsAdded() async throws {
        let apiClient = makeClient()
        let lines = Recorder<String>()
        apiClient.requestInterceptors.append(AddingAuthorization())
        apiClient.networkInterceptors.append(
            LoggingInterceptor(detail: .headers, sink: LoggingInterceptor.Sink { _, message in lines.append(message) }))

        _ = try await apiClient.GET("/me").get()

        #expect(stub.receivedRequests.first?.headers[.authorization] == "Bearer s3cr3t")
        #expect(lines.values.contains { $0.contains("Authorization: REDACTED") }, "\(lines.values)")
        #expect(!lines.values.isEmpty)
        #expect(!lines.values.contains { $0.contains("s3cr3t") }, "\(lines.values)")
    }

    @Test("a retry from a response interceptor or from the retrier runs them again, once per attempt")
    func retriesRunThemAgain() async throws {
        let apiClient = makeClient()
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        apiClient.networkInterceptors.append(RecordingInterceptor(name: "network", log: log, host: host))
        apiClient.responseInterceptors.append(RetryingResponseInterceptor(times: 1))
        apiClient.configuration.retrier = RetryPolicy()

        let response = try await apiClient.GET("/x").get()

        #expect(response.statusCode == 200)
        #expect(log.values == ["network:attempt1", "network:attempt2", "network:attempt3"])
        #expect(stub.receivedRequests.count == 3)
    }

    @Test("an interceptor that calls next twice runs them once per send")
    func oncePerSend() async throws {
        let apiClient = makeClient()
        apiClient.interceptors.append(TwiceInterceptor())
        apiClient.networkInterceptors.append(RecordingInterceptor(name: "network", log: log, host: host))

        _ = try await apiClient.GET("/x").get()

        #expect(log.values == ["network:attempt1", "network:attempt1"])
        #expect(stub.receivedRequests.count == 2)
    }

    @Test("they see the prepared request: resolved URL, encoded body, Content-Type and the transport's own headers")
    func theySeeThePreparedRequest() async throws {
        let transport = TransportWithDefaults(stub: stub)
        let apiClient = makeClient(transport)
        let seen = Recorder<HTTPRequest>()
        apiClient.networkInterceptors.append(RecordingInterceptor(name: "n", log: log, host: host, seen: seen))

        _ = try await apiClient.POST("/notes", parameters: ["q": "a b"], body: ["text": "hi"]).get()

        let request = try #require(seen.values.first)
        #expect(request.url?.absoluteString == "\(endpoint)/notes?q=a%20b")
        #expect(try request.bodyData() == Data(#"{"text":"hi"}"#.utf8))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-Transport"] == "own")
        #expect(request.headers["Accept"] == "*/*")
        #expect(stub.receivedRequests.first?.headers == request.headers)
    }

    @Test("a header of the user wins over the transport's own, and one an interceptor removes stays removed")
    func userHeadersWin() async throws {
        let apiClient = makeClient(TransportWithDefaults(stub: stub))
        apiClient.interceptors.append(RemovingInterceptor(name: "X-Transport"))

        _ = try await apiClient.GET("/x", headers: ["Accept": "application/json"]).get()

        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers.values(for: "Accept") == ["application/json"])
        #expect(sent.headers["X-Transport"] == nil)
    }

    @Test("a request a network interceptor changes is prepared again before the transport gets it")
    func changedRequestIsPreparedAgain() async throws {
        let apiClient = makeClient()
        apiClient.networkInterceptors.append(BodyReplacingInterceptor())

        _ = try await apiClient.POST("/x", body: ["a": 1]).get()

        let sent = try #require(stub.receivedRequests.first)
        #expect(try sent.bodyData() == Data(#"{"b":2}"#.utf8))
        #expect(sent.headers["Content-Type"] == "application/json")
    }

    @Test("a network interceptor that rejects the changed request's header ends the call with invalidRequest")
    func invalidChangeIsRejected() async throws {
        let apiClient = makeClient()
        apiClient.networkInterceptors.append(BadHeaderInterceptor())

        let result = await apiClient.GET("/x")

        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }
}

/// Adds `Authorization: Bearer s3cr3t`, as an authenticator among the request interceptors would.
private struct AddingAuthorization: BothamRequestInterceptor {
    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        request.withHeader(.authorization, "Bearer s3cr3t")
    }
}

private struct TwiceInterceptor: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

private struct RemovingInterceptor: HTTPInterceptor {
    let name: HTTPFieldName

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader(name, nil))
    }
}

private struct BodyReplacingInterceptor: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader(.contentType, nil).withBody(["b": 2]))
    }
}

private struct BadHeaderInterceptor: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader("X-Bad", "a\r\nInjected: yes"))
    }
}
