import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Bad input never crashes and never changes the request: it gives a clear typed error (nothing sent) or a correct
/// encoding.
@Suite("Bad input", .timeLimit(.minutes(1)))
struct BadInputTests {
    let stub = StubHTTPClient()

    init() {
        stub.stub(with: .text("ok"))
    }

    private func send(_ base: String, _ path: String, parameters: HTTPParameters = [:], headers: HTTPHeaders = [:])
        async -> Result<HTTPResponse, APIClientError>
    {
        await BothamAPIClient(baseEndpoint: base, httpClient: stub).GET(path, parameters: parameters, headers: headers)
    }

    @Test(
        "Invalid or relative base endpoints are invalid requests and nothing is sent",
        arguments: [
            "", " ", "api.example.com", "//api.example.com", "/v1", "http//missing-colon.example", "https://",
            "https://exa mple.com", "https://\nexample.com", "http://[::1", "https://:443",
        ]
    )
    func invalidEndpoints(base: String) async {
        let result = await send(base, "/x")
        switch result {
        case .failure(.invalidRequest), .failure(.unsupportedURLScheme): break
        default: Issue.record("\(DebugText.quoted(base)) gave \(result)")
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test(
        "Awkward paths are percent-encoded exactly as written",
        arguments: [
            ("/a b", "/a%20b"),
            ("/ünïcødé/😀", "/%C3%BC%6E%C3%AF%63%C3%B8%64%C3%A9/%F0%9F%98%80"),
            ("/a/../b", "/a/../b"),
            ("/100%", "/100%25"),
            ("/%41%zz", "/%41%25zz"),
            ("/tab\there", "/tab%09here"),
            ("/quote\"<>", "/quote%22%3C%3E"),
        ]
    )
    func awkwardPaths(path: String, expectedPath: String) async throws {
        _ = try await send("https://h.example", path).get()
        let sent = try #require(stub.receivedRequests.first?.url)
        let expected = expectedPath.replacingOccurrences(of: "%6E", with: "n").replacingOccurrences(
            of: "%63", with: "c"
        )
        .replacingOccurrences(of: "%64", with: "d")
        #expect(sent.absoluteString == "https://h.example" + expected)
    }

    @Test("A fragment is kept after the query and never merged into it")
    func fragments() async throws {
        _ = try await send("https://h.example", "/doc#part?notquery", parameters: ["a": "1"]).get()
        #expect(stub.receivedRequests.first?.url?.query == "a=1")
        #expect(stub.receivedRequests.first?.url?.fragment == "part?notquery")
    }

    @Test("Parameters with every reserved and control character round-trip through the URL")
    func everyReservedCharacter() async throws {
        let everything = ":/?#[]@!$&'()*+,;= %\"<>\\^`{|}\t\r\n\0é😀"
        _ = try await send("https://h.example", "/x", parameters: [everything: everything]).get()
        let url = try #require(stub.receivedRequests.first?.url)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.count == 1)
        #expect(items.first?.name == everything)
        #expect(items.first?.value == everything)
    }

    @Test(
        "CR, LF or NUL in a header name or value is rejected and nothing is sent",
        arguments: [
            ("X-A", "a\rb"), ("X-A", "a\nb"), ("X-A", "a\0b"), ("X-A\r", "v"), ("X\nA", "v"), ("X\0A", "v"),
            ("X-A", "\u{7F}"), ("X A", "v"), ("X-é", "v"),
        ]
    )
    func headerInjection(name: String, value: String) async {
        var headers = HTTPHeaders()
        headers.add(HTTPFieldName(name), value)
        let result = await send("https://h.example", "/x", headers: headers)
        guard case .failure(.invalidRequest) = result else {
            Issue.record("\(DebugText.quoted(name)): \(DebugText.quoted(value)) gave \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("NaN and infinities in JSON bodies are rejected", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbers(value: Double) async {
        let result = await BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
            .POST("/x", body: ["nested": ["deep": .double(value)]])
        guard case .failure(.invalidRequest) = result else {
            Issue.record("\(value) gave \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("Invalid JSON in a response is a parsing error that keeps the body")
    func invalidJSONResponse() async {
        let garbage = Data([0x7B, 0x22, 0xFF, 0xFE, 0x00])
        stub.stub(with: .response(body: garbage))
        let result = await BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub).GET("/x")
            .decoded(as: JSONValue.self)
        guard case .failure(.parsingError(let body, _)) = result else {
            Issue.record("expected parsingError, got \(result)")
            return
        }
        #expect(body == garbage)
    }

    @Test("Non-UTF-8 bytes in bodies, headers and errors print safely everywhere")
    func nonUTF8EverywhereItIsPrinted() async {
        var generator = SplitMix64(seed: 0xBAD1_0001)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<256, using: &generator)
            let bytes = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = String(decoding: bytes, as: UTF8.self)
            let request = HTTPRequest(
                method: .post,
                baseEndpoint: "https://h.example",
                path: "/" + text,
                headers: HTTPHeaders([.init(name: HTTPFieldName(text), value: text)]),
                body: .data(bytes)
            )
            let response = HTTPResponse(statusCode: 500, headers: request.headers, body: bytes, request: request)
            let descriptions = [
                request.description, request.debugDescription, response.description, response.debugDescription,
                APIClientError.httpResponseError(response).description,
                APIClientError.parsingError(body: bytes, underlying: TestFailure(message: text)).description,
            ]
            // Printed safely: no control character but the line breaks between a description's own lines.
            for description in descriptions {
                let raw = description.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
                #expect(raw.isEmpty, "\(raw.map(\.value)) in \(DebugText.quoted(description))")
            }
            #expect(!response.debugDescription.contains("\r"))
        }
    }

    @Test("A large body is sent whole, byte for byte")
    func hugeBody() async throws {
        var big = Data(repeating: 0xA5, count: 8 << 20)
        for index in stride(from: 0, to: big.count, by: 4_093) { big[index] = UInt8(truncatingIfNeeded: index) }
        _ = try await BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
            .PUT("/blob", body: .data(big)).get()
        #expect(try stub.receivedRequests.first?.bodyData() == big)
    }
}

@Suite("Secrets in descriptions", .timeLimit(.minutes(1)))
struct SecretsInDescriptionsTests {
    @Test("A password in the endpoint's user-info never appears in request, response or error descriptions")
    func userInfoPasswordIsRedacted() {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://jane:s3cr3t@api.example.com", path: "/x")
        let response = HTTPResponse(statusCode: 500, request: request)
        let texts = [
            request.description, request.debugDescription, response.description, response.debugDescription,
            APIClientError.httpResponseError(response).description,
            APIClientError.retryLimitExceeded(attempts: 2, lastOutcome: .success(response)).description,
        ]
        #expect(texts.allSatisfy { !$0.contains("s3cr3t") })
        #expect(request.description.contains("jane:REDACTED@api.example.com"))
        #expect(request.url?.password == "s3cr3t")
    }
}
