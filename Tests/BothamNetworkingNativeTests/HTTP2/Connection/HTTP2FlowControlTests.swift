import BothamHTTP2Wire
import Testing

@testable import BothamNetworkingNative

@Suite("HTTP2ClientConnection: flow control both ways")
struct HTTP2FlowControlTests {
    /// The DATA frames among `frames`: (stream, octets, END_STREAM).
    func dataFrames(_ frames: [HTTP2Frame]) -> [(UInt32, Int, Bool)] {
        frames.compactMap { frame in
            guard case .data(let data) = frame.payload else { return nil }
            return (frame.streamID.rawValue, data.bytes.count, data.endStream)
        }
    }

    @Test("A request body goes out only as far as the stream's window, and the rest after its WINDOW_UPDATE")
    func streamSendWindow() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            server: &server, settings: [HTTP2Setting(.initialWindowSize, 10)])
        let stream = try connection.post()
        let body = [UInt8](repeating: 0x62, count: 25)

        #expect(connection.send(body[...], on: stream, endStream: true) == 10)
        #expect(connection.sendableBytes(on: stream) == 0)
        #expect(connection.send(body[10...], on: stream, endStream: true) == 0)
        #expect(connection.receive(server.frame(1, .windowUpdate(windowIncrement: 20))) == [.writable])
        #expect(connection.send(body[10...], on: stream, endStream: true) == 15)

        let sent = dataFrames(try server.read(connection.takeOutbound()))
        #expect(sent.map(\.1) == [10, 15])
        #expect(sent.map(\.2) == [false, true])
    }

    @Test("The connection's window limits every stream together")
    func connectionSendWindow() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            server: &server, settings: [HTTP2Setting(.initialWindowSize, 1 << 20)])
        let first = try connection.post("/a")
        let second = try connection.post("/b")
        let body = [UInt8](repeating: 0x62, count: 40_000)

        #expect(connection.send(body[...], on: first, endStream: true) == 40_000)
        #expect(connection.send(body[...], on: second, endStream: true) == 65_535 - 40_000)
        #expect(connection.receive(server.frame(0, .windowUpdate(windowIncrement: 100_000))) == [.writable])
        #expect(connection.send(body[(65_535 - 40_000)...], on: second, endStream: true) == 40_000 - (65_535 - 40_000))
    }

    @Test("DATA frames are cut to the server's SETTINGS_MAX_FRAME_SIZE")
    func frameSize() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        let stream = try connection.post()

        #expect(connection.send([UInt8](repeating: 0, count: 40_000)[...], on: stream, endStream: true) == 40_000)

        #expect(dataFrames(try server.read(connection.takeOutbound())).map(\.1) == [16_384, 16_384, 7_232])
    }

    @Test("A smaller initial window in new SETTINGS can make a stream's window negative: nothing goes until it grows")
    func negativeWindow() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        let stream = try connection.post()
        #expect(connection.send([UInt8](repeating: 0, count: 60_000)[...], on: stream, endStream: false) == 60_000)

        _ = connection.receive(server.settings([HTTP2Setting(.initialWindowSize, 50_000)]))

        #expect(connection.sendableBytes(on: stream) == 0)
        _ = connection.receive(server.frame(1, .windowUpdate(windowIncrement: 10_100)))
        #expect(connection.sendableBytes(on: stream) == 100)
    }

    @Test("An empty body with END_STREAM needs no window")
    func emptyEnd() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            server: &server, settings: [HTTP2Setting(.initialWindowSize, 0)])
        let stream = try connection.post()

        #expect(connection.send([], on: stream, endStream: true) == 0)

        #expect(dataFrames(try server.read(connection.takeOutbound())).map(\.2) == [true])
    }

    @Test("Reading half a window grants it again with WINDOW_UPDATE, on the stream and on the connection")
    func receiveWindowsReplenished() throws {
        var server = ScriptedHTTP2Server()
        let configuration = HTTP2ConnectionConfiguration(streamWindow: 100_000, connectionWindow: 200_000)
        var connection = try HTTP2ClientConnection.established(configuration, server: &server)
        let stream = try connection.get()
        _ = try server.read(connection.takeOutbound())
        _ = connection.receive(
            server.headers(1, [(":status", "200")]) + server.data(1, count: 16_000) + server.data(1, count: 16_000)
                + server.data(1, count: 16_000))

        connection.consumed(48_000, on: stream)
        #expect(try server.read(connection.takeOutbound()) == [])
        _ = connection.receive(server.data(1, count: 16_000))
        connection.consumed(16_000, on: stream)

        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: 1, payload: .windowUpdate(windowIncrement: 64_000))
            ])
        _ = connection.receive(
            server.data(1, count: 16_000) + server.data(1, count: 16_000) + server.data(1, count: 8_000))
        connection.consumed(40_000, on: stream)
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 104_000))
            ])
    }

    @Test("DATA beyond a stream's window resets the stream with FLOW_CONTROL_ERROR")
    func streamWindowExceeded() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(streamWindow: 1_000), server: &server)
        _ = try connection.get()
        _ = try server.read(connection.takeOutbound())

        let events = connection.receive(server.headers(1, [(":status", "200")]) + server.data(1, count: 1_001))

        #expect(events.last == .failed(1, .malformed(.flowControlError, "DATA beyond the stream's window")))
        #expect(connection.failure == nil)
    }

    @Test("DATA beyond the connection's window ends the connection with FLOW_CONTROL_ERROR")
    func connectionWindowExceeded() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(connectionWindow: 0), server: &server)
        _ = try connection.get()
        _ = try connection.get()
        _ = try server.read(connection.takeOutbound())
        _ = connection.receive(server.headers(1, [(":status", "200")]) + server.headers(3, [(":status", "200")]))

        let events = connection.receive(
            server.data(1, count: 16_384) + server.data(3, count: 16_384) + server.data(1, count: 16_384)
                + server.data(3, count: 16_384) + server.data(1, count: 100))

        guard case .closed(.protocolViolation(.flowControlError, _))? = events.last else {
            Issue.record("\(events)")
            return
        }
    }

    @Test("A WINDOW_UPDATE past 2^31 - 1 resets the stream, or ends the connection on stream 0")
    func windowOverflow() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(server: &server)
        _ = try connection.post()

        let streamEvents = connection.receive(server.frame(1, .windowUpdate(windowIncrement: 0x7FFF_FFFF)))
        #expect(streamEvents.last == .failed(1, .malformed(.flowControlError, "its window passed 2^31 - 1")))
        let connectionEvents = connection.receive(server.frame(0, .windowUpdate(windowIncrement: 0x7FFF_FFFF)))
        guard case .closed(.protocolViolation(.flowControlError, _))? = connectionEvents.last else {
            Issue.record("\(connectionEvents)")
            return
        }
    }

    @Test("Padding counts against the stream's window, and is granted again without the consumer")
    func padding() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(streamWindow: 1_000), server: &server)
        let stream = try connection.get()
        _ = try server.read(connection.takeOutbound())

        // Two frames of one octet and 255 of padding (with its length octet): 514 flow-controlled, 512 padding.
        let events = connection.receive(
            server.headers(1, [(":status", "200")]) + server.data(1, "a", padding: 255)
                + server.data(1, "b", padding: 255))

        #expect(events.suffix(2) == [.data(stream, Array("a".utf8)[...]), .data(stream, Array("b".utf8)[...])])
        #expect(
            try server.read(connection.takeOutbound()) == [
                HTTP2Frame(streamID: stream, payload: .windowUpdate(windowIncrement: 512))
            ], "the padding, half the window, granted again though nothing was read")
        // 1,000 - 514 + 512 = 998 left: 999 octets are one too many.
        let over = connection.receive(server.data(1, count: 999))
        #expect(over.last == .failed(stream, .malformed(.flowControlError, "DATA beyond the stream's window")))
    }

    @Test("DATA the connection rejects is given back to the connection's window")
    func rejectedDataGivenBack() throws {
        var server = ScriptedHTTP2Server()
        var connection = try HTTP2ClientConnection.established(
            HTTP2ConnectionConfiguration(connectionWindow: 65_535), server: &server)
        _ = try connection.get()
        _ = try connection.get()
        _ = try server.read(connection.takeOutbound())

        // DATA before the head on stream 1, DATA past its content-length on stream 3: both reset, 40,000 octets.
        let events = connection.receive(
            server.data(1, count: 16_000) + server.headers(3, [(":status", "200"), ("content-length", "1")])
                + server.data(3, count: 16_000) + server.data(3, count: 8_000))

        #expect(events.first == .failed(1, .malformed(.protocolError, "DATA before the response head")))
        #expect(
            try server.read(connection.takeOutbound()).contains(
                HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 40_000))))
    }
}
