import BothamNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockWebServer streamed bodies, Server-Sent Events and write progress", .timeLimit(.minutes(1)))
struct MockWebServerStreamingTests {
    private static let request = "GET /stream HTTP/1.1\r\nHost: test\r\n\r\n"

    private func part(_ text: String, after delay: Duration = .zero) -> StubChunk {
        StubChunk(Data(text.utf8), after: delay)
    }

    // MARK: Streamed bodies

    @Test("streamed parts arrive as separate chunks, in order, then the last chunk, and the connection is kept")
    func partsArriveAsChunks() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withHeader("Content-Type", "application/x-ndjson")
                .streaming([part("a\n"), part("bb\n", after: .milliseconds(20)), part("ccc\n")], end: .complete)
        )
        server.enqueue(MockResponse().withBody("next"))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(Self.request)
        let head = try await connection.readHead()
        var chunks: [String] = []
        for _ in 0..<3 {
            chunks.append(String(decoding: try await connection.readChunk(), as: UTF8.self))
        }
        let last = try await connection.readChunk()
        try connection.write(Self.request)
        let next = try await connection.readResponse()

        #expect(head.statusCode == 200)
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Content-Length") == nil)
        #expect(head.header("Connection") == nil)
        #expect(head.header("Content-Type") == "application/x-ndjson")
        #expect(chunks == ["a\n", "bb\n", "ccc\n"])
        #expect(last.isEmpty)
        #expect(next.bodyText == "next")
    }

    @Test("each part reaches the client before the next part's delay starts")
    func partIsFlushedBeforeTheNextDelay() async throws {
        let server = try MockWebServer()
        server.enqueue(MockResponse().streaming([part("first"), part("never", after: .seconds(30))]))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(Self.request)
        _ = try await connection.readHead()
        let first = try await connection.readChunk(timeout: .seconds(10))
        server.shutdown()

        #expect(String(decoding: first, as: UTF8.self) == "first")
        #expect(await connection.isClosedByServer())
    }

    @Test("the server waits at least each part's delay before writing it")
    func delaysAreObserved() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().streaming([
                part("one", after: .milliseconds(100)), part("two", after: .milliseconds(150)), part("three"),
            ])
        )
        let connection = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()

        let start = clock.now
        try connection.write(Self.request)
        _ = try await connection.readHead()
        var arrivals: [(text: String, elapsed: Duration)] = []
        for _ in 0..<3 {
            let chunk = try await connection.readChunk()
            arrivals.append((String(decoding: chunk, as: UTF8.self), clock.now - start))
        }

        #expect(arrivals.map(\.text) == ["one", "two", "three"])
        #expect(arrivals[0].elapsed >= .milliseconds(100))
        #expect(arrivals[1].elapsed >= .milliseconds(250))
        #expect(arrivals[2].elapsed >= .milliseconds(250))
    }

    @Test("a delay on one stream does not hold up another connection")
    func delayDoesNotBlockOtherConnections() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { request in
            request.path == "/slow"
                ? MockResponse().streaming([StubChunk(Data("late".utf8), after: .seconds(30))])
                : MockResponse().withBody("fast")
        }
        let slow = try RawHTTPConnection(port: server.port)
        try slow.write("GET /slow HTTP/1.1\r\nHost: test\r\n\r\n")
        _ = try await slow.readHead()
        let fast = try RawHTTPConnection(port: server.port)

        try fast.write("GET /fast HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try await fast.readResponse(timeout: .seconds(10))

        #expect(response.bodyText == "fast")
    }

    @Test("end: .disconnect closes the connection after the last part, without the zero-length chunk")
    func disconnectEnd() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().streaming([part("a\n"), part("b\n", after: .milliseconds(10))], end: .disconnect))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(Self.request)
        let head = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Connection") == nil)
        #expect(String(decoding: body, as: UTF8.self) == "2\r\na\n\r\n2\r\nb\n\r\n")
        #expect(end == .endOfStream)
    }

    @Test("parts without bytes only wait: no zero-length chunk ends the body early")
    func emptyPartsAreSkipped() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().streaming([part(""), part("x", after: .milliseconds(10)), part("")]))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(Self.request)
        _ = try await connection.readHead()
        let wire = try await connection.readBytes(11)

        #expect(String(decoding: wire, as: UTF8.self) == "1\r\nx\r\n0\r\n\r\n")
    }

    @Test("an HTTP/1.0 client gets the parts unframed, the body ended by closing the connection")
    func http10Client() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().streaming([part("a\n"), part("b\n", after: .milliseconds(10))]))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let head = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(head.header("Transfer-Encoding") == nil)
        #expect(head.header("Content-Length") == nil)
        #expect(head.header("Connection") == "close")
        #expect(String(decoding: body, as: UTF8.self) == "a\nb\n")
        #expect(end == .endOfStream)
    }

    @Test("URLSession receives a complete streamed body and reports an error for a dropped one")
    func urlSession() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let session = makeTestSession()
        defer { session.invalidateAndCancel() }
        let parts = [part("{\"n\":1}\n"), part("{\"n\":2}\n", after: .milliseconds(20))]
        server.setDispatcher { request in
            MockResponse().streaming(parts, end: request.path == "/drop" ? .disconnect : .complete)
        }

        let (data, response) = try await session.httpData(from: server.url("/complete"))

        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "{\"n\":1}\n{\"n\":2}\n")
        await #expect(throws: (any Error).self) {
            _ = try await session.httpData(from: server.url("/drop"))
        }
    }

    // MARK: Server-Sent Events

    @Test("an event with a comment, event, id, retry and multi-line data has the exact WHATWG wire text")
    func serverSentEventWireText() {
        let event = MockServerSentEvent(
            id: "42",
            event: "update",
            data: "first line\nsecond line",
            retry: 2500,
            comment: "keep-alive"
        )

        #expect(
            event.wireText
                == ": keep-alive\nevent: update\nid: 42\nretry: 2500\ndata: first line\ndata: second line\n\n"
        )
    }

    @Test("data split at CR LF, CR and LF keeps empty lines, and empty values are written as a bare field")
    func serverSentEventLineBreaks() {
        #expect(MockServerSentEvent(data: "a\r\nb\rc\n").wireText == "data: a\ndata: b\ndata: c\ndata:\n\n")
        #expect(MockServerSentEvent(data: "").wireText == "data:\n\n")
        #expect(MockServerSentEvent(data: " indented").wireText == "data:  indented\n\n")
        #expect(MockServerSentEvent(comment: "one\ntwo").wireText == ": one\n: two\n\n")
        #expect(MockServerSentEvent().wireText == "\n")
    }

    @Test("serverSentEvents answers 200 text/event-stream, no-cache, one chunk per event after its delay")
    func serverSentEventsResponse() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let events = [
            MockServerSentEvent(id: "1", data: "hello"),
            MockServerSentEvent(event: "bye", data: "see\nyou", after: .milliseconds(100)),
        ]
        server.enqueue(.serverSentEvents(events))
        let connection = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()

        let start = clock.now
        try connection.write(Self.request)
        let head = try await connection.readHead()
        let first = try await connection.readChunk()
        let second = try await connection.readChunk()
        let elapsed = clock.now - start
        let last = try await connection.readChunk()

        #expect(head.statusCode == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Cache-Control") == "no-cache")
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(String(decoding: first, as: UTF8.self) == "id: 1\ndata: hello\n\n")
        #expect(String(decoding: second, as: UTF8.self) == "event: bye\ndata: see\ndata: you\n\n")
        #expect(elapsed >= .milliseconds(100))
        #expect(last.isEmpty)
    }

    @Test("serverSentEvents with end: .disconnect drops the connection after the last event")
    func serverSentEventsDisconnect() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(.serverSentEvents([MockServerSentEvent(id: "9", data: "last")], end: .disconnect))
        let connection = try RawHTTPConnection(port: server.port)

        try connection.write(Self.request)
        _ = try await connection.readHead()
        let (body, end) = await connection.readUntilClosed()

        #expect(String(decoding: body, as: UTF8.self) == "12\r\nid: 9\ndata: last\n\n\r\n")
        #expect(end == .endOfStream)
    }

    // MARK: Write progress

    @Test("responseBodyBytesWritten counts body bytes of plain, chunked and streamed responses on every connection")
    func bytesWrittenCountsEveryBody() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { request in
            switch request.path {
            case "/plain": MockResponse().withBody("abc")
            case "/chunked": MockResponse().withBody("defg").chunked(chunkSize: 3)
            case "/stream": MockResponse().streaming([StubChunk(Data("hi".utf8))])
            default: MockResponse()
            }
        }

        for paths in [["/plain", "/chunked"], ["/stream"]] {
            let connection = try RawHTTPConnection(port: server.port)
            for path in paths + ["/sync"] {
                try connection.write("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\n")
                _ = try await connection.readResponse()
            }
        }

        // Each connection's last response is written after the bodies before it were counted.
        #expect(server.responseBodyBytesWritten == 3 + 4 + 2)
    }

    @Test(
        "a client that stops reading holds the writer back; reading on lets the count reach the whole body",
        arguments: [false, true]
    )
    func backPressure(streamed: Bool) async throws {
        let size = 32 * 1024 * 1024
        let body = Self.patternedBody(count: size)
        let server = try MockWebServer()
        defer { server.shutdown() }
        let parts = stride(from: 0, to: size, by: 1024 * 1024).map { offset in
            StubChunk(body[offset..<(offset + 1024 * 1024)])
        }
        server.enqueue(streamed ? MockResponse().streaming(parts) : MockResponse().withBody(body))
        server.enqueue(MockResponse())
        let connection = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()

        try connection.write(Self.request)
        let head = try await connection.readHead()
        var peakWhileStalled = 0
        let stallEnd = clock.now + .milliseconds(300)
        while clock.now < stallEnd {
            peakWhileStalled = max(peakWhileStalled, server.responseBodyBytesWritten)
            try await Task.sleep(for: .milliseconds(20))
        }
        peakWhileStalled = max(peakWhileStalled, server.responseBodyBytesWritten)
        var received: [UInt8] = []
        if streamed {
            while true {
                let chunk = try await connection.readChunk(timeout: .seconds(20))
                if chunk.isEmpty { break }
                received += chunk
            }
        } else {
            received = try await connection.readBytes(size, timeout: .seconds(20))
        }
        try connection.write(Self.request)
        _ = try await connection.readResponse()

        #expect(head.header("Transfer-Encoding") == (streamed ? "chunked" : nil))
        #expect(peakWhileStalled > 0)
        #expect(peakWhileStalled < size / 2, "\(peakWhileStalled) bytes written while the client was not reading")
        #expect(received.count == size)
        #expect(Data(received) == body)
        #expect(server.responseBodyBytesWritten == size)
    }

    /// `count` bytes of a repeating pattern whose period (251) is not a power of two, so a misplaced slice shows.
    private static func patternedBody(count: Int) -> Data {
        let block = Data((0..<(251 * 16)).map { UInt8($0 % 251) })
        var body = Data(capacity: count + block.count)
        while body.count < count {
            body.append(block)
        }
        return body.prefix(count)
    }
}
