import BothamHTTP2Wire
import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@testable import BothamNetworkingNative

/// The hypercorn servers of `scripts/ws-servers.sh` for WebSockets over HTTP/2 (RFC 8441), beside the others.
extension WebSocketServers {
    static let cleartext = environment["BOTHAM_TEST_WS_H2C"]
    static let secure = environment["BOTHAM_TEST_WSS_H2"]
    static let needsCleartext = ConditionTrait.enabled(
        if: cleartext != nil,
        "BOTHAM_TEST_WS_H2C is not set: run scripts/ws-servers.sh start and eval its env (.ci/run does)")
    static let needsSecure = ConditionTrait.enabled(
        if: secure != nil && certificateAuthority != nil,
        "BOTHAM_TEST_WSS_H2 or BOTHAM_TEST_WSS_CA is not set: run scripts/ws-servers.sh start and eval its env")

    /// A client of hypercorn's h2c port, speaking HTTP/2 with prior knowledge.
    static func cleartextClient() throws -> (BothamAPIClient, NativeHTTPClient) {
        var configuration = NativeHTTPClient.Configuration()
        configuration.httpVersion = .http2PriorKnowledge
        let native = NativeHTTPClient(configuration: configuration)
        return (BothamAPIClient(baseEndpoint: "http://\(try #require(cleartext))", httpClient: native), native)
    }

    /// A client of hypercorn's TLS port trusting the test CA, with `policy` deciding what ALPN offers.
    static func secureClient(_ policy: NativeHTTPClient.HTTPVersionPolicy) throws -> BothamAPIClient {
        var configuration = NativeHTTPClient.Configuration()
        configuration.httpVersion = policy
        configuration.tls = TLSConfiguration(trustRoots: .pemFile(try #require(certificateAuthority)))
        return BothamAPIClient(
            baseEndpoint: "wss://\(try #require(secure))", httpClient: NativeHTTPClient(configuration: configuration))
    }
}

/// WebSockets over HTTP/2 streams (RFC 8441 extended CONNECT) against hypercorn, which announces
/// SETTINGS_ENABLE_CONNECT_PROTOCOL: the socket shares the origin's HTTP/2 connection.
@Suite("WebSockets over HTTP/2 on NativeHTTPClient against hypercorn (loopback)", .timeLimit(.minutes(1)))
struct WebSocketHTTP2Tests {
    @Test(
        "over h2c with prior knowledge a text and a binary message echo on an HTTP/2 stream",
        WebSocketServers.needsCleartext)
    func echo() async throws {
        let (client, _) = try WebSocketServers.cleartextClient()
        let socket = try await client.webSocket("/echo")
        #expect(socket.response.statusCode == 200)
        #expect(socket.response.timings?.protocolVersion == .http2)
        try await expectTextAndBinaryEchoed(on: socket)
        await socket.close()
        #expect(socket.closeCode == .normalClosure)
    }

    @Test(
        "messages of several MiB cross the stream both ways within HTTP/2 flow control",
        WebSocketServers.needsCleartext)
    func largeMessages() async throws {
        let (client, _) = try WebSocketServers.cleartextClient()
        let socket = try await client.webSocket("/echo", options: WebSocket.Options(compression: false))
        #expect(socket.response.timings?.protocolVersion == .http2)
        let random = Data((0..<(6 << 20)).map { _ in UInt8.random(in: 0...255) })
        let text = String(repeating: "botham networking ", count: (3 << 20) / 18)
        try await socket.send(.binary(random))
        try await socket.send(.text(text))
        try await socket.send(.binary(random))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(random))
        #expect(try await iterator.next() == .text(text))
        #expect(try await iterator.next() == .binary(random))
        await socket.close()
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("the server's choice among the offered subprotocols is the socket's", WebSocketServers.needsCleartext)
    func subprotocol() async throws {
        let (client, _) = try WebSocketServers.cleartextClient()
        let socket = try await client.webSocket("/echo", protocols: ["chat.v1", "chat.v2"])
        #expect(socket.subprotocol == "chat.v2")
        #expect(socket.response.timings?.protocolVersion == .http2)
        await socket.close()
    }

    @Test("a close from the server ends the messages with its code", WebSocketServers.needsCleartext)
    func serverClose() async throws {
        let (client, _) = try WebSocketServers.cleartextClient()
        let socket = try await client.webSocket("/close", parameters: ["code": "4001"])
        #expect(socket.response.timings?.protocolVersion == .http2)
        var received: [WebSocket.Message] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received.isEmpty)
        #expect(socket.closeCode == .other(4001))
    }

    @Test(
        "several sockets and plain GETs share one HTTP/2 connection at once, and it serves more after they close",
        WebSocketServers.needsCleartext)
    func multiplexed() async throws {
        let (client, native) = try WebSocketServers.cleartextClient()
        let first = try await client.webSocket("/echo")
        var sockets = [first]
        try await withThrowingTaskGroup(of: WebSocket.self) { group in
            for _ in 0..<4 { group.addTask { try await client.webSocket("/echo") } }
            for try await socket in group { sockets.append(socket) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, socket) in sockets.enumerated() {
                group.addTask {
                    var iterator = socket.messages.makeAsyncIterator()
                    for round in 0..<20 {
                        try await socket.send(.text("socket \(index) round \(round)"))
                        #expect(try await iterator.next() == .text("socket \(index) round \(round)"))
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    let response = try await client.GET("/").get()
                    #expect(response.body == Data("hello over h2\n".utf8))
                    #expect(response.timings?.protocolVersion == .http2)
                }
            }
            try await group.waitForAll()
        }
        for socket in sockets {
            #expect(socket.response.timings?.protocolVersion == .http2)
            await socket.close()
            #expect(socket.closeCode == .normalClosure)
        }
        let after = try await client.GET("/").get()
        #expect(after.statusCode == 200)
        #expect(await native.openedConnectionCount() == 1)
    }

    @Test(
        "wss:// with ALPN h2 and a custom root opens on an HTTP/2 stream; http1Only upgrades over HTTP/1.1",
        WebSocketServers.needsSecure)
    func secure() async throws {
        let socket = try await WebSocketServers.secureClient(.preferHTTP2).webSocket("/echo")
        #expect(socket.response.timings?.protocolVersion == .http2)
        try await socket.send(.text("secure"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("secure"))
        await socket.close()
        #expect(socket.closeCode == .normalClosure)

        let upgraded = try await WebSocketServers.secureClient(.http1Only).webSocket("/echo")
        #expect(upgraded.response.statusCode == 101)
        #expect(upgraded.response.timings?.protocolVersion == .http1_1)
        try await upgraded.send(.text("secure"))
        var upgradedMessages = upgraded.messages.makeAsyncIterator()
        #expect(try await upgradedMessages.next() == .text("secure"))
        await upgraded.close()
    }
}

/// What decides between RFC 8441 and the HTTP/1.1 upgrade, without a network: the server's
/// SETTINGS_ENABLE_CONNECT_PROTOCOL, the extended CONNECT's fields, and the fall back when a server lacks it.
@Suite("WebSockets over HTTP/2: the server's setting, the fields, the fall back", .timeLimit(.minutes(1)))
struct WebSocketHTTP2DecisionTests {
    private static func connection(after settings: [HTTP2Setting]...) -> (HTTP2ClientConnection, [HTTP2ConnectionEvent])
    {
        var server = ScriptedHTTP2Server()
        var connection = HTTP2ClientConnection()
        connection.start()
        _ = try? server.read(connection.takeOutbound())
        var events: [HTTP2ConnectionEvent] = []
        for frame in settings { events += connection.receive(server.settings(frame)) }
        return (connection, events)
    }

    @Test("SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 is recorded; without it the server takes no extended CONNECT")
    func settingRecorded() {
        #expect(Self.connection(after: [HTTP2Setting(.enableConnectProtocol, 1)]).0.peerEnablesConnectProtocol)
        #expect(!Self.connection(after: [HTTP2Setting(.maxConcurrentStreams, 10)]).0.peerEnablesConnectProtocol)
        #expect(!HTTP2ClientConnection().peerEnablesConnectProtocol)
    }

    @Test(
        "a value other than 0 or 1, or 0 after 1, is a PROTOCOL_ERROR (RFC 8441 §3)",
        arguments: [
            [[HTTP2Setting(.enableConnectProtocol, 2)]],
            [[HTTP2Setting(.enableConnectProtocol, 1)], [HTTP2Setting(.enableConnectProtocol, 0)]],
        ])
    func invalidSetting(_ frames: [[HTTP2Setting]]) {
        var server = ScriptedHTTP2Server()
        var connection = HTTP2ClientConnection()
        connection.start()
        _ = try? server.read(connection.takeOutbound())
        var events: [HTTP2ConnectionEvent] = []
        for frame in frames { events += connection.receive(server.settings(frame)) }
        guard case .closed(.protocolViolation(.protocolError, _)) = events.last else {
            Issue.record("\(events)")
            return
        }
    }

    @Test("the extended CONNECT has :method CONNECT and :protocol websocket, and no Upgrade, Connection or key")
    func extendedConnectFields() {
        let headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "chat.v2",
            "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits", "Authorization": "Bearer t",
        ]
        let head = RequestHead(
            http1: Data(), method: "GET", origin: Origin(scheme: "https", host: "api.example.com", port: 443),
            path: "/chat?room=1", headers: headers, bodyLength: nil, chunked: false)
        let fields = HTTP2RequestFields.extendedConnect(head, protocol: "websocket", neverIndexed: { _ in false })
        let pairs = fields.map {
            "\(String(decoding: $0.name, as: UTF8.self)): \(String(decoding: $0.value, as: UTF8.self))"
        }
        #expect(
            pairs == [
                ":method: CONNECT", ":protocol: websocket", ":scheme: https", ":authority: api.example.com",
                ":path: /chat?room=1", "sec-websocket-version: 13", "sec-websocket-protocol: chat.v2",
                "sec-websocket-extensions: permessage-deflate; client_max_window_bits", "authorization: Bearer t",
            ])
    }

    @Test(
        "an HTTP/2 server without the setting gets no stream: an HTTP/1.1 upgrade on a connection of its own"
    )
    func fallsBackToHTTP1() async throws {
        // MockWebServer speaks h2c with prior knowledge and HTTP/1.1 on one port; its SETTINGS lack the setting.
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 426))
        let native = makeClient { $0.httpVersion = .http2PriorKnowledge }
        let client = BothamAPIClient(baseEndpoint: "ws://127.0.0.1:\(server.port)", httpClient: native)

        await #expect {
            _ = try await client.webSocket("/chat")
        } throws: { error in
            (error as? APIClientError)?.statusCode == 426
        }

        let request = try await server.takeRequest()
        #expect(request.version == "HTTP/1.1")
        #expect(request.method == .get)
        #expect(request.headers["Upgrade"] == "websocket")
        #expect(request.headers["Sec-WebSocket-Key"] != nil)
        #expect(request.connectionIndex == 1)
        #expect(server.requestCount == 1)
        #expect(await native.openedConnectionCount() == 2)
    }
}
