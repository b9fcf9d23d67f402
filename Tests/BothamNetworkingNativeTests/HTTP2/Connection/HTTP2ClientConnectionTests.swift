import BothamHTTP2Wire
import Testing

@testable import BothamNetworkingNative

/// Responses RFC 9113 calls malformed, for ``HTTP2ClientConnectionTests/malformedResponses(case:)``.
enum MalformedResponses {
    /// Responses RFC 9113 calls malformed (§8.1.1, §8.2, §8.3.2), each as the frames after a GET on stream 1.
    static let all: [(String, @Sendable (inout ScriptedHTTP2Server) -> [UInt8])] = [
        ("no :status", { $0.headers(1, [("content-type", "text/plain")], endStream: true) }),
        ("an uppercase field name", { $0.literalHeaders(1, name: "Content-Type", value: "x") }),
        (
            "a connection-specific field",
            { $0.headers(1, [(":status", "200"), ("connection", "close")], endStream: true) }
        ),
        (
            "transfer-encoding",
            { $0.headers(1, [(":status", "200"), ("transfer-encoding", "chunked")], endStream: true) }
        ),
        ("a pseudo-field after a regular one", { $0.headers(1, [("a", "b"), (":status", "200")], endStream: true) }),
        ("a request pseudo-field", { $0.headers(1, [(":status", "200"), (":path", "/")], endStream: true) }),
        ("a status of two digits", { $0.headers(1, [(":status", "20")], endStream: true) }),
        ("a value with a line feed", { $0.headers(1, [(":status", "200"), ("x", "a\nb")], endStream: true) }),
        ("a value with leading space", { $0.headers(1, [(":status", "200"), ("x", " a")], endStream: true) }),
        ("a 101", { $0.headers(1, [(":status", "101")]) }),
        ("a 1xx with END_STREAM", { $0.headers(1, [(":status", "100")], endStream: true) }),
        ("DATA before the head", { server in server.data(1, "x", endStream: true) }),
        (
            "a body shorter than content-length",
            { server in
                server.headers(1, [(":status", "200"), ("content-length", "10")])
                    + server.data(1, "short", endStream: true)
            }
        ),
        (
            "a body longer than content-length",
            { server in
                server.headers(1, [(":status", "200"), ("content-length", "2")]) + server.data(1, "longer")
            }
        ),
        (
            "two different content-lengths",
            { server in
                server.headers(1, [(":status", "200"), ("content-length", "2"), ("content-length", "3")])
            }
        ),
        (
            "trailers without END_STREAM",
            { server in
                server.headers(1, [(":status", "200")]) + server.headers(1, [("x", "y")])
            }
        ),
        (
            "a pseudo-field in trailers",
            { server in
                server.headers(1, [(":status", "200")]) + server.headers(1, [(":status", "200")], endStream: true)
            }
        ),
    ]
}

@Suite("HTTP2ClientConnection: preface, settings, responses")
struct HTTP2ClientConnectionTests {
    @Test(
        "The preface is the magic, our SETTINGS (push off, our window and header limits) and a connection WINDOW_UPDATE"
    )
    func preface() throws {
        var connection = HTTP2ClientConnection()
        connection.start()
        var server = ScriptedHTTP2Server()

        let frames = try server.read(connection.takeOutbound())

        try #require(frames.count == 2)
        guard case .settings(.parameters(let parameters)) = frames[0].payload else {
            Issue.record("first frame: \(frames[0])")
            return
        }
        #expect(parameters.contains(HTTP2Setting(.enablePush, 0)))
        #expect(parameters.contains(HTTP2Setting(.initialWindowSize, 1 << 20)))
        #expect(parameters.contains(HTTP2Setting(.maxHeaderListSize, 64 * 1024)))
        #expect(
            frames[1] == HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: (4 << 20) - 65_535)))
    }

    @Test("The server's SETTINGS make the connection ready, are applied and acknowledged")
    func serverSettings() throws {
        var server = ScriptedHTTP2Server()
        var connection = HTTP2ClientConnection()
        connection.start()
        _ = try server.read(connection.takeOutbound())

        let events = connection.receive(
            server.settings([HTTP2Setting(.maxConcurrentStreams, 7), HTTP2Setting(.maxFrameSize, 32_768)]))

        #expect(events == [.ready])
        #expect(connection.maxConcurrentStreams == 7)
        #expect(connection.remoteSettings.maxFrameSize == 32_768)
        #expect(
            try server.read(connection.takeOutbound()) == [HTTP2Frame(streamID: .connection, payload: .settings(.ack))])
    }

    @Test("A server whose first frame is not SETTINGS ends the connection with PROTOCOL_ERROR")
    func prefaceNotSettings() throws {
        var server = ScriptedHTTP2Server()
        var connection = HTTP2ClientConnection()
        connection.start()
        _ = try server.read(connection.takeOutbound())

        let events = connection.receive(server.frame(0, .ping(.init(opaqueData: 1))))

        guard case .closed(.protocolViolation(.protocolError, _)) = events.last else {
            Issue.record("\(events)")
            return
        }
        let goAway = try server.read(connection.takeOutbound()).last
        guard case .goAway(let payload) = goAway?.payload else {
            Issue.record("no GOAWAY: \(String(describing: goAway))")
            return
        }
        #expect(payload.errorCode == .protocolError)
        #expect(!connection.canOpenStream)
    }

    @Test("A GET goes out as one HEADERS with END_STREAM, and its response comes back as head, data and end")
    func getAndResponse() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)

        let stream = try connection.get("/items?page=2", extra: [("accept", "application/json")])
        let sent = try server.read(connection.takeOutbound())
        try #require(sent.count == 1)
        guard case .headers(let headers) = sent[0].payload else {
            Issue.record("\(sent)")
            return
        }
        #expect(sent[0].streamID == 1 && stream == 1)
        #expect(headers.endStream && headers.endHeaders)
        #expect(
            try server.fields(of: headers.fieldBlock).map(\.text) == [
                ":method: GET", ":scheme: http", ":authority: example.test", ":path: /items?page=2",
                "accept: application/json",
            ])

        let events = connection.receive(
            server.headers(1, [(":status", "200"), ("content-type", "text/plain"), ("content-length", "5")])
                + server.data(1, "hel") + server.data(1, "lo", endStream: true))

        #expect(
            events == [
                .head(
                    1, status: 200,
                    fields: [
                        .init(name: "content-type", value: "text/plain"), .init(name: "content-length", value: "5"),
                    ]),
                .data(1, Array("hel".utf8)[...]), .data(1, Array("lo".utf8)[...]), .end(1),
            ])
        #expect(connection.openStreamCount == 0)
        #expect(connection.canOpenStream)
    }

    @Test("1xx informational responses come before the final head; trailers end the stream")
    func informationalAndTrailers() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()

        let events = connection.receive(
            server.headers(1, [(":status", "103"), ("link", "</a.css>; rel=preload")])
                + server.headers(1, [(":status", "200")]) + server.data(1, "body")
                + server.headers(1, [("grpc-status", "0")], endStream: true))

        #expect(
            events == [
                .informational(1, status: 103, fields: [.init(name: "link", value: "</a.css>; rel=preload")]),
                .head(1, status: 200, fields: []), .data(1, Array("body".utf8)[...]),
                .trailers(1, fields: [.init(name: "grpc-status", value: "0")]), .end(1),
            ])
    }

    @Test("A response head with END_STREAM is a complete response without body")
    func headOnly() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()

        let events = connection.receive(server.headers(1, [(":status", "204")], endStream: true))

        #expect(events == [.head(1, status: 204, fields: []), .end(1)])
        #expect(connection.openStreamCount == 0)
    }

    @Test(
        "A malformed response resets its stream with PROTOCOL_ERROR and the connection goes on",
        arguments: MalformedResponses.all.indices)
    func malformedResponses(case index: Int) throws {
        let (name, script) = MalformedResponses.all[index]
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()
        _ = try server.read(connection.takeOutbound())

        let events = connection.receive(script(&server))

        guard case .failed(1, .malformed(.protocolError, let reason))? = events.last else {
            Issue.record("\(name): \(events)")
            return
        }
        #expect(!reason.isEmpty)
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: 1, payload: .rstStream(.protocolError))
            ], "\(name)")
        #expect(connection.failure == nil, "\(name): only the stream ends")
        #expect(connection.canOpenStream)
    }

    @Test("PING is answered with the same payload; the answer to ours is reported")
    func ping() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)

        #expect(connection.receive(server.frame(0, .ping(.init(opaqueData: 42)))) == [])
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 42, ack: true)))
            ])
        connection.ping(7)
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 7)))
            ])
        #expect(connection.receive(server.frame(0, .ping(.init(opaqueData: 7, ack: true)))) == [.pingAcknowledged(7)])
    }

    @Test("Frames on a stream never opened end the connection with PROTOCOL_ERROR", arguments: [2, 5] as [UInt32])
    func idleStreams(stream: UInt32) throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()

        let events = connection.receive(server.headers(stream, [(":status", "200")], endStream: true))

        #expect(
            events.first
                == .failed(1, .connectionClosed(.protocolViolation(.protocolError, "HEADERS on idle stream \(stream)")))
        )
        guard case .closed(.protocolViolation(.protocolError, _))? = events.last else {
            Issue.record("\(events)")
            return
        }
    }

    @Test("A field section over our SETTINGS_MAX_HEADER_LIST_SIZE fails only its stream, and the next one decodes")
    func headerListTooLarge() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(maxHeaderListSize: 200), server: &server)
        _ = try connection.get()
        _ = try connection.get()

        let events = connection.receive(
            server.headers(1, [(":status", "200"), ("x-big", String(repeating: "b", count: 130))], endStream: true)
                + server.headers(3, [(":status", "204")], endStream: true))

        #expect(
            events == [
                .failed(1, .headTooLarge(limit: 200)),
                .head(3, status: 204, fields: []), .end(3),
            ])
        #expect(connection.failure == nil)
    }

    @Test("A response to HEAD, a 204 and a 304 have no content, whatever their content-length says")
    func responsesWithoutContent() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        let head = try connection.openStream(
            fields: [(":method", "HEAD"), (":scheme", "http"), (":authority", "a.test"), (":path", "/")]
                .map { HPACKHeaderField(name: $0.0, value: $0.1) }, endStream: true)
        _ = try connection.get()
        _ = try connection.get()
        let withBody = try connection.openStream(
            fields: [(":method", "HEAD"), (":scheme", "http"), (":authority", "a.test"), (":path", "/")]
                .map { HPACKHeaderField(name: $0.0, value: $0.1) }, endStream: true)

        let events = connection.receive(
            server.headers(head.rawValue, [(":status", "200"), ("content-length", "26")], endStream: true)
                + server.headers(3, [(":status", "204"), ("content-length", "5")], endStream: true)
                + server.headers(5, [(":status", "304"), ("content-length", "9")], endStream: true)
                + server.headers(withBody.rawValue, [(":status", "200"), ("content-length", "2")])
                + server.data(withBody.rawValue, "hi", endStream: true))

        #expect(
            Array(events.prefix(6)) == [
                .head(1, status: 200, fields: [.init(name: "content-length", value: "26")]), .end(1),
                .head(3, status: 204, fields: [.init(name: "content-length", value: "5")]), .end(3),
                .head(5, status: 304, fields: [.init(name: "content-length", value: "9")]), .end(5),
            ])
        #expect(events.last == .failed(7, .malformed(.protocolError, "more body than its content-length of 0")))
    }

    @Test("More than 32 informational responses on a stream reset it with ENHANCE_YOUR_CALM")
    func informationalFlood() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()
        var flood: [UInt8] = []
        for _ in 0...32 { flood += server.headers(1, [(":status", "100")]) }

        let events = connection.receive(flood)

        #expect(events.count == 33)
        #expect(events.last == .failed(1, .malformed(.enhanceYourCalm, "more than 32 1xx responses")))
    }

    @Test("A field block that cannot be decoded ends the connection with COMPRESSION_ERROR")
    func compressionError() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()

        // Index 70 is neither in the static table (61 entries) nor in an empty dynamic table.
        let events = connection.receive(
            server.frame(1, .headers(.init(fieldBlock: [0x80 | 70], endStream: true, endHeaders: true))))

        guard case .closed(.protocolViolation(.compressionError, _))? = events.last else {
            Issue.record("\(events)")
            return
        }
    }
}
