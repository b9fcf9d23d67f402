import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("LoggingInterceptor", .timeLimit(.minutes(1)))
struct LoggingInterceptorTests {
    static let secrets = [
        "SECRET-AUTH", "SECRET-COOKIE", "SECRET-KEY", "SECRET-QUERY", "SECRET-SETCOOKIE", "SECRET-PROXY",
    ]

    let stub = StubHTTPClient()
    let lines = Recorder<(level: LoggingInterceptor.Sink.Level, message: String)>()
    let redactor = Redactor(headerNames: ["X-Api-Key"], queryParameterNames: ["access_token"])

    var sink: LoggingInterceptor.Sink {
        let lines = self.lines
        return LoggingInterceptor.Sink { lines.append((level: $0, message: $1)) }
    }

    func client(_ detail: LoggingInterceptor.Detail, maxRetries: Int = 0) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(maxRetries: maxRetries)
        )
        apiClient.interceptors.append(LoggingInterceptor(detail: detail, sink: sink, redactor: redactor))
        return apiClient
    }

    var secretRequest: HTTPRequest {
        HTTPRequest(
            method: .post,
            baseEndpoint: "https://api.example.com",
            path: "/login?access_token=SECRET-QUERY&page=2",
            headers: [
                .authorization: "Bearer SECRET-AUTH", .cookie: "session=SECRET-COOKIE", "x-api-key": "SECRET-KEY",
                .proxyAuthorization: "Basic SECRET-PROXY",
            ],
            body: ["user": "jane"]
        )
    }

    @Test("No secret appears in any line at any level, for responses, HTTP errors and failures")
    func redactionEverywhere() async {
        let levels: [LoggingInterceptor.Detail] = [.none, .basic, .headers, .body]
        for level in levels {
            stub.removeAllStubs()
            stub.stub(with: .text("welcome", headers: [.setCookie: "id=SECRET-SETCOOKIE"]))
            _ = await client(level).send(secretRequest)
            stub.stub(with: .text("nope", statusCode: 403, headers: [.setCookie: "id=SECRET-SETCOOKIE"]))
            _ = await client(level).send(secretRequest)
            stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))))
            _ = await client(level).send(secretRequest)
            stub.removeAllStubs()  // unmatched: the transport's error describes the whole request, secrets included
            _ = await client(level).send(secretRequest)
        }
        let all = lines.values.map(\.message)
        #expect(all.count == 3 * 8)
        for line in all {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "\(secret) leaked in: \(line)")
            }
        }
        #expect(all.contains { $0.contains("Authorization: REDACTED") })
        #expect(all.contains { $0.contains("access_token=REDACTED&page=2") })
        #expect(all.contains { $0.contains("Set-Cookie: REDACTED") })
    }

    @Test("One line per event with the call id, the attempt and the duration")
    func linesPerEvent() async throws {
        stub.stub(with: .response(statusCode: 503), .text("ok"))
        let apiClient = client(.basic, maxRetries: 1)
        apiClient.configuration.retrier = RetryPolicy(jitter: .none)
        apiClient.configuration.clock = VirtualClock(sleeping: .advancesClock)
        _ = await apiClient.GET("/items")

        let logged = lines.values
        #expect(logged.map(\.level) == [.info, .warning, .info, .info])
        #expect(logged[0].message.hasPrefix("--> GET https://api.example.com/items [call "))
        #expect(logged[0].message.hasSuffix("attempt 1/2]"))
        #expect(logged[1].message.hasPrefix("<-- 503 GET https://api.example.com/items ("))
        #expect(logged[1].message.contains(" ms, 0 bytes) [call "))
        #expect(logged[3].message.contains("attempt 2/2]"))
        #expect(logged.allSatisfy { !$0.message.contains("\n") })
        let callIDs = Set(logged.compactMap { $0.message.split(separator: "[call ").last?.split(separator: ",").first })
        #expect(callIDs.count == 1)
    }

    @Test("Failures are logged as errors, cancellation as a notice")
    func failureLevels() async {
        stub.stub(with: .failure(.timeout))
        _ = await client(.basic).GET("/slow")
        stub.stub(with: .failure(.cancelled))
        _ = await client(.basic).GET("/gone")
        let failures = lines.values.filter { $0.message.hasPrefix("<-- FAILED") }
        #expect(failures.map(\.level) == [.error, .notice])
        #expect(failures[0].message.contains("): timeout [call"))
    }

    @Test("Bodies are shown at the body level only, cut at the byte limit")
    func bodies() async {
        stub.stub(with: .text(String(repeating: "x", count: 100)))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.interceptors.append(LoggingInterceptor(detail: .body, sink: sink, bodyLimit: 10))
        _ = await apiClient.POST("/items", body: ["name": "widget"])
        let logged = lines.values.map(\.message)
        #expect(logged[0].hasSuffix(#"body: {"name":"w… (17 bytes)"#))
        #expect(logged[1].hasSuffix("body: xxxxxxxxxx… (100 bytes)"))

        _ = await client(.headers).GET("/items")
        #expect(lines.values.suffix(2).allSatisfy { !$0.message.contains("body:") })
    }

    @Test("Control characters in response headers and bodies are escaped, never new lines")
    func controlCharacters() async throws {
        let logging = LoggingInterceptor(detail: .body, sink: sink)
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")
        let next = HTTPInterceptorNext { sent in
            HTTPResponse(
                statusCode: 200,
                headers: ["X-Evil": "a\r\nInjected: yes\u{1B}[31m"],
                body: Data("line1\nline2\u{0}".utf8),
                request: sent
            )
        }
        _ = try await logging.intercept(
            request, context: HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1), next: next)
        let response = try #require(lines.values.last?.message)
        #expect(!response.contains("\n") && !response.contains("\r") && !response.contains("\u{1B}"))
        #expect(response.contains(#"X-Evil: a\r\nInjected: yes\u{1b}[31m"#))
    }

    @Test("1,000 random bodies log without crashing and stay on one line")
    func randomBodies() async throws {
        var generator = SplitMix64(seed: 0x106_0001)
        let counter = Lock(0)
        let logging = LoggingInterceptor(
            detail: .body,
            sink: LoggingInterceptor.Sink { _, message in
                counter.withLock { $0 += message.contains("\n") ? 1_000_000 : 1 }
            },
            bodyLimit: 64
        )
        let context = HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1)
        for _ in 0..<1_000 {
            let count = Int.random(in: 0..<300, using: &generator)
            let bytes = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let request = HTTPRequest(method: .put, baseEndpoint: "https://api.example.com", body: .data(bytes))
            let next = HTTPInterceptorNext { HTTPResponse(statusCode: 200, body: bytes, request: $0) }
            _ = try await logging.intercept(request, context: context, next: next)
        }
        #expect(counter.withLock { $0 } == 2_000)
    }

    @Test("Detail none logs nothing")
    func levelNone() async {
        stub.stub(with: .text("ok"))
        _ = await client(.none).GET("/items")
        #expect(lines.values.isEmpty)
    }
}

@Suite("LoggingInterceptor timings", .timeLimit(.minutes(1)))
struct LoggingInterceptorTimingsTests {
    private func responseLine(at detail: LoggingInterceptor.Detail, timings: HTTPResponse.Timings?) async throws
        -> String
    {
        let lines = Recorder<String>()
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: TimedTransport([.success((statusCode: 200, timings: timings))]),
            configuration: .init(maxRetries: 0)
        )
        apiClient.interceptors.append(
            LoggingInterceptor(detail: detail, sink: LoggingInterceptor.Sink { lines.append($1) }))
        _ = try await apiClient.GET("/items").get()
        return try #require(lines.values.first { $0.hasPrefix("<--") })
    }

    @Test("At headers detail the response line shows the attempt's timings; below it, and without timings, it does not")
    func timingsAtHeaders() async throws {
        let timings = HTTPResponse.Timings.sample(step: 1)
        let atHeaders = try await responseLine(at: .headers, timings: timings)
        #expect(
            atHeaders.contains(
                " timings: dns 1.0ms connect 1.0ms tls 1.0ms send 1.0ms wait 1.0ms receive 1.0ms new connection"),
            "\(atHeaders)")
        #expect(try await responseLine(at: .body, timings: timings).contains(" timings: dns 1.0ms"))
        #expect(try await !responseLine(at: .basic, timings: timings).contains("timings"))
        #expect(try await !responseLine(at: .headers, timings: nil).contains("timings"))
    }
}
