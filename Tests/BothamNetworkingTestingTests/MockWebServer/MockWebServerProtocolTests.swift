import BothamNetworkingTesting
import Foundation
import Testing

@Suite("MockWebServer HTTP/1.1 semantics over raw sockets", .timeLimit(.minutes(1)))
struct MockWebServerProtocolTests {
    @Test("requests on one kept-alive connection get increasing sequence numbers")
    func keepAliveSequenceNumbers() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { request in MockResponse().withBody(request.path) }
        let connection = try RawHTTPConnection(port: server.port)

        var bodies: [String] = []
        for path in ["/one", "/two", "/three"] {
            try connection.write("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\n")
            bodies.append(try await connection.readResponse().bodyText)
        }
        let requests = [try await server.takeRequest(), try await server.takeRequest(), try await server.takeRequest()]

        #expect(bodies == ["/one", "/two", "/three"])
        #expect(requests.map(\.sequenceNumber) == [0, 1, 2])
        #expect(Set(requests.map(\.connectionIndex)).count == 1)
    }

    @Test("pipelined requests are answered in order on the same connection")
    func pipelinedRequests() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("first"))
        server.enqueue(MockResponse().withBody("second"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(
            "POST /a HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: test\r\n\r\n"
        )
        let first = try await connection.readResponse()
        let second = try await connection.readResponse()
        let recordedFirst = try await server.takeRequest()
        let recordedSecond = try await server.takeRequest()

        #expect(first.bodyText == "first")
        #expect(second.bodyText == "second")
        #expect(recordedFirst.bodyAsString == "abc")
        #expect(recordedFirst.sequenceNumber == 0)
        #expect(recordedSecond.sequenceNumber == 1)
        #expect(recordedSecond.path == "/b")
    }

    @Test("each new connection gets the next connection index")
    func connectionIndexes() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }

        for _ in 0..<2 {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
            _ = try await connection.readResponse()
        }
        let first = try await server.takeRequest()
        let second = try await server.takeRequest()

        #expect(first.connectionIndex == 0)
        #expect(second.connectionIndex == 1)
        #expect(second.sequenceNumber == 0)
    }

    @Test("a client's Connection: close is honoured")
    func clientConnectionClose() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("bye"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(response.header("Connection") == "close")
        #expect(response.bodyText == "bye")
        #expect(await connection.isClosedByServer())
    }

    @Test("closingConnection sends Connection: close and closes after the response")
    func responseClosesConnection() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("last").closingConnection())
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(response.header("Connection") == "close")
        #expect(await connection.isClosedByServer())
    }

    @Test("an HTTP/1.0 request without keep-alive gets its response and then the connection closes")
    func http10WithoutKeepAlive() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("old"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET /legacy HTTP/1.0\r\n\r\n")
        let response = try await connection.readResponse()
        let recorded = try await server.takeRequest()

        #expect(response.statusCode == 200)
        #expect(response.bodyText == "old")
        #expect(recorded.version == "HTTP/1.0")
        #expect(await connection.isClosedByServer())
    }

    @Test("an HTTP/1.0 request with Connection: keep-alive keeps the connection")
    func http10KeepAlive() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET /1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try await connection.readResponse()
        try connection.write("GET /2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        _ = try await connection.readResponse()
        _ = try await server.takeRequest()
        let second = try await server.takeRequest()

        #expect(first.header("Connection") == "keep-alive")
        #expect(second.sequenceNumber == 1)
    }

    @Test("an HTTP/1.0 client gets a chunked response with Content-Length framing instead")
    func http10GetsNoChunks() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("abcdef").chunked(chunkSize: 2))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.0\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(response.header("Transfer-Encoding") == nil)
        #expect(response.header("Content-Length") == "6")
        #expect(response.bodyText == "abcdef")
    }

    @Test("a chunked request body with extensions and trailers is decoded")
    func chunkedRequestBody() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(
            "POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n6 ; other\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n"
        )
        let response = try await connection.readResponse()
        let recorded = try await server.takeRequest()

        #expect(response.statusCode == 404)
        #expect(recorded.bodyAsString == "hello world")
        #expect(recorded.chunkSizes == [5, 6])
        #expect("\(recorded.trailers)" == "X-Checksum: abc")
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is read")
    func expectContinue() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 201))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("PUT /file HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = try await connection.readResponse()
        try connection.write("data")
        let final = try await connection.readResponse()
        let recorded = try await server.takeRequest()

        #expect(interim.statusLine == "HTTP/1.1 100 Continue")
        #expect(final.statusCode == 201)
        #expect(recorded.bodyAsString == "data")
    }

    @Test("Expect: 100-continue with a body over the limit gets 413 instead of 100 Continue")
    func expectContinueTooLarge() async throws {
        let server = try MockWebServer(configuration: .init(maxBodyBytes: 10))
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("PUT /file HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        let response = try await connection.readResponse()

        #expect(response.statusCode == 413)
        #expect(await connection.isClosedByServer())
        #expect(server.requestCount == 0)
    }

    @Test("a HEAD response has Content-Length but no body, and the connection stays usable")
    func headHasNoBody() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in MockResponse().withBody("hello") }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("HEAD / HTTP/1.1\r\nHost: test\r\n\r\n")
        let head = try await connection.readResponse(hasBody: false)
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let get = try await connection.readResponse()

        #expect(head.header("Content-Length") == "5")
        #expect(head.body.isEmpty)
        #expect(get.statusLine == "HTTP/1.1 200 OK")
        #expect(get.bodyText == "hello")
    }

    @Test("a 204 response gets neither Content-Length nor body")
    func noContent() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 204).withBody("ignored"))
        server.enqueue(MockResponse().withBody("next"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("DELETE /item HTTP/1.1\r\nHost: test\r\n\r\nGET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let deleted = try await connection.readResponse()
        let next = try await connection.readResponse()

        #expect(deleted.statusLine == "HTTP/1.1 204 No Content")
        #expect(deleted.header("Content-Length") == nil)
        #expect(next.bodyText == "next")
    }

    @Test("header order, repeats and original case are recorded; look-ups ignore case")
    func recordedHeaders() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\nX-Tag: one\r\nx-tag:two  \r\nAccept: */*\r\n\r\n")
        _ = try await connection.readResponse()
        let recorded = try await server.takeRequest()

        #expect(recorded.headers.map(\.name.rawName) == ["Host", "X-Tag", "x-tag", "Accept"])
        #expect(recorded.headers.values(for: "X-TAG") == ["one", "two"])
        #expect(recorded.header("x-tag") == "one")
        #expect(recorded.header("Missing") == nil)
    }

    @Test("an absolute-form request target is split into path and query")
    func absoluteFormTarget() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET http://example.com:8080/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        _ = try await connection.readResponse()
        let recorded = try await server.takeRequest()

        #expect(recorded.target == "http://example.com:8080/a/b?x=1")
        #expect(recorded.path == "/a/b")
        #expect(recorded.query == "x=1")
    }
}
