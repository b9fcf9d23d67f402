import BothamNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockWebServer socket policies (faults) as seen by a client", .timeLimit(.minutes(1)))
struct MockWebServerFaultTests {
    /// Starts a server answering every request with `response`, connects, and sends one GET.
    private func exchange(_ response: MockResponse) throws -> (MockWebServer, RawHTTPConnection) {
        let server = try MockWebServer()
        server.setDispatcher { _ in response }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET /fault HTTP/1.1\r\nHost: test\r\n\r\n")
        return (server, connection)
    }

    @Test("disconnectAtStart closes without sending a byte, after recording the request")
    func disconnectAtStart() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("never").withSocketPolicy(.disconnectAtStart))
        defer { server.shutdown() }

        let (bytes, end) = await connection.readUntilClosed()

        #expect(bytes.isEmpty)
        #expect(end == .endOfStream)
        #expect(try await server.takeRequest().path == "/fault")
    }

    @Test("disconnectAfterHeaders sends the headers and then closes")
    func disconnectAfterHeaders() async throws {
        let (server, connection) = try exchange(
            MockResponse().withBody("hello").withSocketPolicy(.disconnectAfterHeaders)
        )
        defer { server.shutdown() }

        let (bytes, end) = await connection.readUntilClosed()
        let text = String(decoding: bytes, as: UTF8.self)

        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Length: 5\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(end == .endOfStream)
    }

    @Test("disconnectDuringBody sends half of the body and then closes")
    func disconnectDuringBody() async throws {
        let (server, connection) = try exchange(
            MockResponse().withBody("0123456789").withSocketPolicy(.disconnectDuringBody)
        )
        defer { server.shutdown() }

        let head = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(head.header("Content-Length") == "10")
        #expect(String(decoding: body, as: UTF8.self) == "01234")
        #expect(end == .endOfStream)
    }

    @Test("noResponse stalls until the server shuts down")
    func noResponse() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("never").withSocketPolicy(.noResponse))

        let (stalled, stalledEnd) = await connection.readUntilClosed(timeout: .milliseconds(300))
        server.shutdown()
        let (afterShutdown, afterEnd) = await connection.readUntilClosed()

        #expect(stalled.isEmpty)
        #expect(stalledEnd == .timedOut)
        #expect(afterShutdown.isEmpty)
        #expect(afterEnd == .endOfStream)
    }

    @Test("noResponse ends when the client closes its side, and the server counts the client's close")
    func noResponseSeesTheClientClose() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("never").withSocketPolicy(.noResponse))
        defer { server.shutdown() }
        _ = try await server.takeRequest()
        #expect(server.clientClosedConnectionCount == 0)

        connection.finishWriting()

        #expect(await connection.isClosedByServer())
        #expect(server.clientClosedConnectionCount == 1)
    }

    @Test("malformedStatusLine sends a status line without a numeric code and closes")
    func malformedStatusLine() async throws {
        let (server, connection) = try exchange(MockResponse().withSocketPolicy(.malformedStatusLine))
        defer { server.shutdown() }

        let (bytes, end) = await connection.readUntilClosed()

        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 ABC MALFORMED\r\n\r\n")
        #expect(end == .endOfStream)
    }

    @Test("raw sends its bytes in place of the response and keeps the connection for the next request")
    func rawKeepsTheConnection() async throws {
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\nhi\r\n0\r\nX-Trailer: t\r\n\r\n"
        let (server, connection) = try exchange(
            MockResponse(statusCode: 500).withBody("unused").withSocketPolicy(.raw(Data(wire.utf8)))
        )
        defer { server.shutdown() }

        let bytes = try await connection.readBytes(wire.utf8.count)
        try connection.write("GET /again HTTP/1.1\r\nHost: test\r\n\r\n")
        let again = try await connection.readBytes(wire.utf8.count)

        #expect(String(decoding: bytes, as: UTF8.self) == wire)
        #expect(again == bytes)
        #expect(try await server.takeRequest().path == "/fault")
        #expect(try await server.takeRequest().connectionIndex == 0)
        #expect(server.responseBodyBytesWritten == 0)
    }

    @Test("raw with closingConnection sends its bytes and closes, without adding Connection: close")
    func rawThenClose() async throws {
        let wire = "HTTP/1.0 200 OK\r\n\r\nuntil close"
        let (server, connection) = try exchange(
            MockResponse().withSocketPolicy(.raw(Data(wire.utf8))).closingConnection()
        )
        defer { server.shutdown() }

        let (bytes, end) = await connection.readUntilClosed()

        #expect(String(decoding: bytes, as: UTF8.self) == wire)
        #expect(end == .endOfStream)
    }

    @Test("wrongContentLength declares more bytes than it sends, then closes")
    func wrongContentLength() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("abc").withSocketPolicy(.wrongContentLength))
        defer { server.shutdown() }

        let head = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(head.header("Content-Length") == "1027")
        #expect(String(decoding: body, as: UTF8.self) == "abc")
        #expect(end == .endOfStream)
    }

    @Test("truncatedChunkedBody sends the first half in chunks without the last chunk, then closes")
    func truncatedChunkedBody() async throws {
        let (server, connection) = try exchange(
            MockResponse().withBody("abcdefgh").chunked(chunkSize: 2).withSocketPolicy(.truncatedChunkedBody)
        )
        defer { server.shutdown() }

        let head = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(String(decoding: body, as: UTF8.self) == "2\r\nab\r\n2\r\ncd\r\n")
        #expect(end == .endOfStream)
    }

    @Test("resetConnection makes the client see a TCP reset")
    func resetConnection() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("never").withSocketPolicy(.resetConnection))
        defer { server.shutdown() }

        let (bytes, end) = await connection.readUntilClosed()

        #expect(bytes.isEmpty)
        #expect(end == .reset)
    }

    @Test("keepOpen is the default and keeps the connection for the next request")
    func keepOpen() async throws {
        let (server, connection) = try exchange(MockResponse().withBody("again").withSocketPolicy(.keepOpen))
        defer { server.shutdown() }

        let first = try await connection.readResponse()
        try connection.write("GET /fault HTTP/1.1\r\nHost: test\r\n\r\n")
        let second = try await connection.readResponse()

        #expect(MockResponse().socketPolicy == .keepOpen)
        #expect(first.header("Connection") == nil)
        #expect([first.bodyText, second.bodyText] == ["again", "again"])
    }

    @Test(
        "URLSession reports an error for a body cut short",
        arguments: [
            SocketPolicy.disconnectDuringBody, .wrongContentLength, .truncatedChunkedBody,
        ])
    func urlSessionSeesTruncation(_ policy: SocketPolicy) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        var response = MockResponse().withBody(String(repeating: "x", count: 1000)).withSocketPolicy(policy)
        if policy == .truncatedChunkedBody {
            response = response.chunked(chunkSize: 100)
        }
        server.setDispatcher { [response] _ in response }

        await #expect(throws: (any Error).self) {
            _ = try await session.httpData(from: server.url("/cut"))
        }
    }
}
