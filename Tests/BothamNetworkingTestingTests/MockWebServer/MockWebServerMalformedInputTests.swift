import BothamNetworkingTesting
import Foundation
import Testing

/// One kind of invalid input and the status the server must answer it with.
struct MalformedInput: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: String
    var expectedStatus: Int

    var testDescription: String { "\(name) → \(expectedStatus)" }

    static let all: [MalformedInput] = [
        .init(name: "garbage request line", bytes: "GARBAGE\r\n\r\n", expectedStatus: 400),
        .init(name: "request line without version", bytes: "GET /\r\n\r\n", expectedStatus: 400),
        .init(name: "double space in request line", bytes: "GET  / HTTP/1.1\r\n\r\n", expectedStatus: 400),
        .init(name: "malformed version", bytes: "GET / HTTP/one\r\n\r\n", expectedStatus: 400),
        .init(name: "unsupported version", bytes: "GET / HTTP/2.0\r\n\r\n", expectedStatus: 505),
        .init(name: "header without colon", bytes: "GET / HTTP/1.1\r\nBad Header\r\n\r\n", expectedStatus: 400),
        .init(name: "space before colon", bytes: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", expectedStatus: 400),
        .init(name: "obsolete line folding", bytes: "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", expectedStatus: 400),
        .init(name: "control character in value", bytes: "GET / HTTP/1.1\r\nA: b\u{1}c\r\n\r\n", expectedStatus: 400),
        .init(
            name: "non-numeric Content-Length", bytes: "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
            expectedStatus: 400),
        .init(
            name: "negative Content-Length", bytes: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", expectedStatus: 400
        ),
        .init(
            name: "conflicting Content-Length",
            bytes: "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            expectedStatus: 400
        ),
        .init(
            name: "Content-Length overflowing Int",
            bytes: "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999999\r\n\r\n",
            expectedStatus: 413
        ),
        .init(
            name: "both Transfer-Encoding and Content-Length",
            bytes: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
            expectedStatus: 400
        ),
        .init(
            name: "unsupported Transfer-Encoding",
            bytes: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            expectedStatus: 400
        ),
        .init(
            name: "bad chunk size",
            bytes: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
            expectedStatus: 400
        ),
        .init(
            name: "chunk size overflowing Int",
            bytes: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffff\r\n",
            expectedStatus: 413
        ),
        .init(
            name: "chunk data longer than its size",
            bytes: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n",
            expectedStatus: 400
        ),
        .init(
            name: "unsupported expectation",
            bytes: "POST / HTTP/1.1\r\nExpect: something-else\r\nContent-Length: 1\r\n\r\nx",
            expectedStatus: 417
        ),
    ]
}

@Suite("MockWebServer answers malformed and oversized input with 4xx, never a crash", .timeLimit(.minutes(1)))
struct MockWebServerMalformedInputTests {
    @Test(
        "malformed input is answered with an error status and the connection is closed", arguments: MalformedInput.all)
    func malformedInput(_ input: MalformedInput) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(input.bytes)
        let response = try await connection.readResponse()

        #expect(response.statusCode == input.expectedStatus)
        #expect(response.header("Connection") == "close")
        #expect(await connection.isClosedByServer())
        #expect(server.requestCount == 0)
    }

    @Test("the server keeps serving other connections after malformed input")
    func keepsServing() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        for input in MalformedInput.all {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write(input.bytes)
            _ = await connection.readUntilClosed()
        }
        server.enqueue(MockResponse().withBody("still alive"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")

        #expect(try await connection.readResponse().bodyText == "still alive")
    }

    @Test("a header section over the limit is answered with 431")
    func oversizedHeaders() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)
        let filler = String(repeating: "a", count: 1000)
        let headers = (0..<70).map { "X-Filler-\($0): \(filler)\r\n" }.joined()

        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\(headers)\r\n")
        let response = try await connection.readResponse()

        #expect(response.statusCode == 431)
        #expect(await connection.isClosedByServer())
    }

    @Test("a single header line longer than the limit is answered with 431")
    func oversizedHeaderLine() async throws {
        var configuration = MockWebServer.Configuration()
        configuration.maxHeaderBytes = 1024
        let server = try MockWebServer(configuration: configuration)
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "b", count: 4096))\r\n\r\n")

        #expect(try await connection.readResponse().statusCode == 431)
    }

    @Test("a Content-Length body over the limit is answered with 413")
    func oversizedBody() async throws {
        let server = try MockWebServer(configuration: .init(maxBodyBytes: 10))
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 11\r\n\r\nhello world")

        #expect(try await connection.readResponse().statusCode == 413)
        #expect(server.requestCount == 0)
    }

    @Test("a chunked body growing over the limit is answered with 413")
    func oversizedChunkedBody() async throws {
        let server = try MockWebServer(configuration: .init(maxBodyBytes: 10))
        defer { server.shutdown() }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(
            "POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n"
        )

        #expect(try await connection.readResponse().statusCode == 413)
    }

    @Test("a client that disconnects in the middle of a request is ignored")
    func partialRequest() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        do {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\nonly part")
        }
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET /after HTTP/1.1\r\nHost: test\r\n\r\n")
        _ = try await connection.readResponse()

        #expect(try await server.takeRequest().path == "/after")
        #expect(server.requestCount == 1)
    }
}
