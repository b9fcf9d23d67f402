import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockWebServer responses and recorded requests", .timeLimit(.minutes(1)))
struct MockWebServerQueueTests {
    @Test("binds 127.0.0.1 on an ephemeral port and builds URLs from it")
    func addressAndURLs() throws {
        let server = try MockWebServer()
        defer { server.shutdown() }

        #expect(server.host == "127.0.0.1")
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(server.url("/users?page=2").absoluteString == "http://127.0.0.1:\(server.port)/users?page=2")
        #expect(server.url("users").absoluteString == "http://127.0.0.1:\(server.port)/users")
    }

    @Test("two servers get different ports")
    func twoServers() throws {
        let first = try MockWebServer()
        defer { first.shutdown() }
        let second = try MockWebServer()
        defer { second.shutdown() }

        #expect(first.port != second.port)
    }

    @Test("an address that is not an IP literal is rejected with a typed error")
    func invalidHost() {
        #expect(throws: MockWebServerError.invalidHost("example.invalid")) {
            _ = try MockWebServer(configuration: .init(host: "example.invalid"))
        }
    }

    @Test("enqueued responses are served in order")
    func enqueueOrder() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        server.enqueue(MockResponse().withBody("first"))
        server.enqueue(contentsOf: [
            MockResponse(statusCode: 201).withBody("second"),
            MockResponse(statusCode: 503).withBody("third"),
        ])

        var answers: [String] = []
        for _ in 0..<3 {
            let (data, response) = try await session.httpData(from: server.url("/"))
            answers.append("\(response.statusCode) \(String(decoding: data, as: UTF8.self))")
        }

        #expect(answers == ["200 first", "201 second", "503 third"])
        #expect(server.queuedResponseCount == 0)
    }

    @Test(
        "a request takeRequest returned has its response already taken off the queue, so one sent after it on another connection gets the next"
    )
    func takeRequestMeansTheResponseIsSpokenFor() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        // Many rounds: the server thread that records a request could, before the fix, be preempted between
        // handing it to the taker and taking its response off the queue.
        for round in 0..<200 {
            server.enqueue(contentsOf: [MockResponse().withBody("first"), MockResponse().withBody("second")])
            let first = try RawHTTPConnection(port: server.port)
            try first.write("GET /first HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try await server.takeRequest().path == "/first")
            #expect(server.queuedResponseCount == 1, "round \(round)")

            let second = try RawHTTPConnection(port: server.port)
            try second.write("GET /second HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try await second.readResponse().bodyText == "second", "round \(round)")
            #expect(try await first.readResponse().bodyText == "first", "round \(round)")
            _ = try await server.takeRequest()
        }
    }

    @Test("an empty queue answers with the default response, 404 unless configured")
    func defaultResponse() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }

        let (_, notFound) = try await session.httpData(from: server.url("/missing"))
        server.setDefaultResponse(MockResponse(statusCode: 418).withBody("teapot"))
        let (data, teapot) = try await session.httpData(from: server.url("/missing"))

        #expect(notFound.statusCode == 404)
        #expect(teapot.statusCode == 418)
        #expect(String(decoding: data, as: UTF8.self) == "teapot")
    }

    @Test("a dispatcher answers by request and takes precedence over the queue")
    func dispatcher() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        server.enqueue(MockResponse().withBody("queued"))
        server.setDispatcher { request in
            request.path == "/users"
                ? MockResponse().withJSONBody(#"[{"id":1}]"#)
                : MockResponse(statusCode: 404).withBody("no route for \(request.path)")
        }

        let (users, usersResponse) = try await session.httpData(from: server.url("/users"))
        let (other, otherResponse) = try await session.httpData(from: server.url("/other"))
        server.setDispatcher(nil)
        let (queued, _) = try await session.httpData(from: server.url("/users"))

        #expect(usersResponse.statusCode == 200)
        #expect(usersResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(String(decoding: users, as: UTF8.self) == #"[{"id":1}]"#)
        #expect(otherResponse.statusCode == 404)
        #expect(String(decoding: other, as: UTF8.self) == "no route for /other")
        #expect(String(decoding: queued, as: UTF8.self) == "queued")
    }

    @Test("takeRequest records method, path, query, headers and body")
    func recordsRequest() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        server.enqueue(MockResponse(statusCode: 201))
        var request = URLRequest(url: server.url("/users/search?name=Ada%20Lovelace&tag=a&tag=b&flag"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"name":"Ada"}"#.utf8)

        let (_, response) = try await session.httpData(for: request)
        let recorded = try await server.takeRequest()

        #expect(response.statusCode == 201)
        #expect(recorded.method == "POST")
        #expect(recorded.version == "HTTP/1.1")
        #expect(recorded.target == "/users/search?name=Ada%20Lovelace&tag=a&tag=b&flag")
        #expect(recorded.path == "/users/search")
        #expect(recorded.query == "name=Ada%20Lovelace&tag=a&tag=b&flag")
        #expect(
            recorded.queryItems == [
                URLQueryItem(name: "name", value: "Ada Lovelace"), URLQueryItem(name: "tag", value: "a"),
                URLQueryItem(name: "tag", value: "b"), URLQueryItem(name: "flag", value: nil),
            ]
        )
        #expect(recorded.header("authorization") == "Bearer secret")
        #expect(recorded.header("CONTENT-TYPE") == "application/json")
        #expect(recorded.header("Content-Length") == "14")
        #expect(recorded.bodyAsString == #"{"name":"Ada"}"#)
        #expect(recorded.sequenceNumber == 0)
        #expect(server.requestCount == 1)
    }

    @Test("takeRequest hands out requests in arrival order and counts them")
    func takeRequestOrder() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }

        for path in ["/a", "/b", "/c"] {
            _ = try await session.httpData(from: server.url(path))
        }

        #expect(server.requestCount == 3)
        #expect(try await server.takeRequest().path == "/a")
        #expect(try await server.takeRequest().path == "/b")
        #expect(try await server.takeRequest().path == "/c")
    }

    @Test("takeRequest waits for a request that arrives later")
    func takeRequestWaits() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }

        async let recorded = server.takeRequest(timeout: .seconds(10))
        let (_, response) = try await session.httpData(from: server.url("/later"))

        #expect(response.statusCode == 404)
        #expect(try await recorded.path == "/later")
    }

    @Test("takeRequest throws a typed timeout when nothing arrives")
    func takeRequestTimesOut() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let clock = ContinuousClock()
        let start = clock.now

        await #expect(throws: MockWebServerError.timeout(.milliseconds(100))) {
            try await server.takeRequest(timeout: .milliseconds(100))
        }
        #expect(clock.now - start >= .milliseconds(100))
    }

    @Test("a cancelled takeRequest throws CancellationError at once")
    func takeRequestCancelled() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let waiting = Task { try await server.takeRequest(timeout: .seconds(30)) }
        waiting.cancel()

        await #expect(throws: CancellationError.self) {
            try await awaitingCancellably(waiting)
        }
    }

    @Test("a JSON body from an Encodable value gets the JSON content type")
    func encodableJSONBody() async throws {
        struct Payload: Codable, Equatable {
            var id: Int
            var name: String
        }
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        server.enqueue(try MockResponse().withJSONBody(Payload(id: 7, name: "Grace")))

        let (data, response) = try await session.httpData(from: server.url("/payload"))

        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(Payload.self, from: data) == Payload(id: 7, name: "Grace"))
    }

    @Test("a chunked response with a chosen chunk size is decoded by URLSession")
    func chunkedResponseWithURLSession() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        let text = String(repeating: "chunked body ", count: 100)
        server.enqueue(MockResponse().withBody(text).chunked(chunkSize: 7))

        let (data, response) = try await session.httpData(from: server.url("/chunked"))

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(String(decoding: data, as: UTF8.self) == text)
    }

    @Test("a chunked response is framed in chunks of the chosen size")
    func chunkedResponseFraming() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("abcdefgh").chunked(chunkSize: 3))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let head = try await connection.readHead()
        let wire = try await connection.readBytes(28)

        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Content-Length") == nil)
        #expect(String(decoding: wire, as: UTF8.self) == "3\r\nabc\r\n3\r\ndef\r\n2\r\ngh\r\n0\r\n\r\n")
    }

    @Test("50 concurrent URLSession requests are all answered")
    func concurrentRequests() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        server.setDispatcher { request in MockResponse().withBody("answer for \(request.path)") }

        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let (data, response) = try await session.httpData(from: server.url("/items/\(index)"))
                    #expect(response.statusCode == 200)
                    return (index, String(decoding: data, as: UTF8.self))
                }
            }
            var bodies: [Int: String] = [:]
            for try await (index, body) in group {
                bodies[index] = body
            }
            return bodies
        }

        #expect(bodies.count == 50)
        for index in 0..<50 {
            #expect(bodies[index] == "answer for /items/\(index)")
        }
        #expect(server.requestCount == 50)
    }

    @Test("status, custom reason phrase and repeated headers are sent as given")
    func statusAndRepeatedHeaders() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse(statusCode: 299, reasonPhrase: "Custom Reason")
                .withHeader("Set-Cookie", "a=1")
                .withHeader("Set-Cookie", "b=2")
                .withBody("x")
        )
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(response.statusLine == "HTTP/1.1 299 Custom Reason")
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(response.header("Content-Length") == "1")
        #expect(response.bodyText == "x")
    }

    @Test(
        "binds the IPv6 loopback and serves over it",
        .enabled(if: IPv6Loopback.isAvailable || IPv6Loopback.isRequired, IPv6Loopback.skipReason)
    )
    func ipv6Loopback() async throws {
        try #require(IPv6Loopback.isAvailable, "BOTHAM_REQUIRE_IPV6=1, but no socket binds to ::1 on this machine")
        let server = try MockWebServer(configuration: .init(host: "::1"))
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("over IPv6"))
        let connection = try RawHTTPConnection(port: server.port, host: "::1")

        try connection.write("GET /v6 HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        #expect(response.bodyText == "over IPv6")
    }
}
