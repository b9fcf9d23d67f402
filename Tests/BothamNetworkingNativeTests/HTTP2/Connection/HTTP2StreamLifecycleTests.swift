import BothamHTTP2Wire
import Testing

@testable import BothamNetworkingNative

@Suite("HTTP2ClientConnection: stream limits, resets, GOAWAY")
struct HTTP2StreamLifecycleTests {
    @Test("SETTINGS_MAX_CONCURRENT_STREAMS bounds the open streams; one ending makes room")
    func maxConcurrentStreams() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            server: &server, settings: [HTTP2Setting(.maxConcurrentStreams, 1)])
        _ = try connection.get()

        #expect(throws: HTTP2StreamOpenError.tooManyStreams(limit: 1)) { try connection.get() }
        _ = connection.receive(server.headers(1, [(":status", "204")], endStream: true))
        #expect(try connection.get() == 3)
    }

    @Test("Before the server's SETTINGS, at most the assumed number of streams open")
    func assumedLimit() throws {
        var connection = HTTP2ClientConnection(
            configuration: HTTP2ConnectionConfiguration(assumedMaxConcurrentStreams: 2))
        connection.start()
        _ = try connection.get()
        _ = try connection.get()

        #expect(throws: HTTP2StreamOpenError.tooManyStreams(limit: 2)) { try connection.get() }
    }

    @Test(
        "RST_STREAM: REFUSED_STREAM means never processed; another code is a reset; NO_ERROR after the response is not a failure"
    )
    func resets() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()
        _ = try connection.get()
        let upload = try connection.post()

        #expect(connection.receive(server.frame(1, .rstStream(.refusedStream))) == [.failed(1, .refused)])
        #expect(connection.receive(server.frame(3, .rstStream(.internalError))) == [.failed(3, .reset(.internalError))])
        let early = connection.receive(
            server.headers(5, [(":status", "413")], endStream: true) + server.frame(5, .rstStream(.noError)))
        #expect(early == [.head(5, status: 413, fields: []), .end(5)])
        #expect(!connection.isOpen(upload))
        #expect(connection.receive(server.frame(5, .rstStream(.noError))) == [], "a late frame on a closed stream")
    }

    @Test("A reset after the complete response, whatever its code, only stops the request body: no failure")
    func resetAfterEnd() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        let upload = try connection.post()

        let events = connection.receive(
            server.headers(1, [(":status", "200")], endStream: true) + server.frame(1, .rstStream(.cancel)))

        #expect(events == [.head(upload, status: 200, fields: []), .end(upload)])
        #expect(!connection.isOpen(upload))
    }

    @Test("GOAWAY: streams above its last are refused at once, those below finish, and no new stream opens")
    func goAway() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()
        _ = try connection.get()
        _ = try connection.get()

        let events = connection.receive(
            server.frame(0, .goAway(.init(lastStreamID: 1, errorCode: .noError, debugData: Array("bye".utf8)))))

        #expect(
            events == [
                .failed(3, .refused), .failed(5, .refused), .goingAway(lastStreamID: 1, code: .noError, debug: "bye"),
            ])
        #expect(throws: HTTP2StreamOpenError.goingAway) { try connection.get() }
        #expect(!connection.isFinished)
        #expect(
            connection.receive(server.headers(1, [(":status", "200")], endStream: true)) == [
                .head(1, status: 200, fields: []), .end(1),
            ])
        #expect(connection.isFinished)
    }

    @Test("GOAWAY with an error and nothing left to finish closes the connection")
    func goAwayWithError() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()

        let events = connection.receive(server.frame(0, .goAway(.init(lastStreamID: 0, errorCode: .enhanceYourCalm))))

        #expect(
            events == [
                .failed(1, .refused), .goingAway(lastStreamID: 0, code: .enhanceYourCalm, debug: ""),
                .closed(.goAway(.enhanceYourCalm, "")),
            ])
        #expect(connection.isFinished)
    }

    @Test(
        "A cancelled stream is reset with CANCEL; its late DATA is dropped but still counted, its HEADERS still decoded"
    )
    func cancel() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(connectionWindow: 65_535), server: &server)
        let cancelled = try connection.get()
        let other = try connection.get()
        _ = try server.read(connection.takeOutbound())

        connection.cancel(cancelled)
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: cancelled, payload: .rstStream(.cancel))
            ])

        // The server's encoder adds x-session to its dynamic table in the cancelled stream's block; the other
        // stream's block refers to it by index: decoding only works if the first block was decoded too.
        let late = connection.receive(
            server.headers(1, [(":status", "200"), ("x-session", "abc")]) + server.data(1, count: 16_000)
                + server.data(1, count: 16_000) + server.data(1, count: 16_000)
                + server.headers(3, [(":status", "200"), ("x-session", "abc")], endStream: true))

        #expect(late == [.head(other, status: 200, fields: [.init(name: "x-session", value: "abc")]), .end(other)])
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 48_000))
            ], "the dropped octets are granted again")
    }

    @Test("close() sends GOAWAY and opens nothing more; the connection is finished once its streams are")
    func closeGracefully() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.get()
        _ = try server.read(connection.takeOutbound())

        connection.close()

        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(
                    streamID: .connection, payload: .goAway(.init(lastStreamID: .connection, errorCode: .noError)))
            ])
        #expect(throws: HTTP2StreamOpenError.goingAway) { try connection.get() }
        #expect(!connection.isFinished)
        _ = connection.receive(server.headers(1, [(":status", "204")], endStream: true))
        #expect(connection.isFinished)
    }

    @Test("Sensitive request fields are sent as never-indexed literals")
    func sensitiveFields() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(sensitiveFieldNames: ["x-api-key"]), server: &server)

        _ = try connection.get(extra: [("authorization", "Bearer t"), ("x-api-key", "k")])

        guard case .headers(let headers)? = try server.read(connection.takeOutbound()).first?.payload else {
            Issue.record("no HEADERS")
            return
        }
        let fields = try server.fields(of: headers.fieldBlock)
        #expect(fields.filter(\.neverIndexed).map(\.text) == ["authorization: Bearer t", "x-api-key: k"])
    }
}

extension HTTP2StreamLifecycleTests {
    @Test("A stream whose response ended while its body was still going is never reported failed afterwards")
    func endedStreamsStayEnded() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        let upload = try connection.post()
        let other = try connection.post()
        _ = connection.receive(server.headers(1, [(":status", "200")], endStream: true))

        // A RST_STREAM of 0 octets (not 4) is a connection error: it fails the other stream, not the ended one.
        let events = connection.receive([0, 0, 0, 3, 0, 0, 0, 0, 3] as [UInt8])

        #expect(events.count == 2, "\(events)")
        #expect(events.first == .failed(other, .connectionClosed(try #require(connection.failure))))
        guard case .closed(.protocolViolation(.frameSizeError, _))? = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(!connection.isOpen(upload))
    }
}

extension HTTP2StreamLifecycleTests {
    @Test("A request whose fields exceed the server's SETTINGS_MAX_HEADER_LIST_SIZE opens no stream and sends nothing")
    func fieldsOverTheServersLimit() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            server: &server, settings: [HTTP2Setting(.maxHeaderListSize, 300)])

        // HPACK counts each field as name + value + 32: the pseudo-fields take 177, the cookie 238.
        #expect(throws: HTTP2StreamOpenError.fieldsTooLarge(size: 415, limit: 300)) {
            try connection.get(extra: [("cookie", String(repeating: "c", count: 200))])
        }
        #expect(try server.read(connection.takeOutbound()) == [])
        #expect(try connection.get() == 1, "a smaller request still opens, and as stream 1")
    }
}
