import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// The WebSocket servers `scripts/ws-servers.sh` starts, from the variables it writes.
enum WebSocketServers {
    static let environment = ProcessInfo.processInfo.environment
    static let websockets = environment["BOTHAM_TEST_WS"]
    static let nginx = environment["BOTHAM_TEST_WSS_NGINX"]
    static let certificateAuthority = environment["BOTHAM_TEST_WSS_CA"]
    static let pin = environment["BOTHAM_TEST_WSS_PIN"]
    static let needsWebsockets = ConditionTrait.enabled(
        if: websockets != nil,
        "BOTHAM_TEST_WS is not set: run scripts/ws-servers.sh start and eval its env (.ci/run does)")
    static let needsNginx = ConditionTrait.enabled(
        if: nginx != nil && certificateAuthority != nil && pin != nil,
        "BOTHAM_TEST_WSS_NGINX is not set: run scripts/ws-servers.sh start and eval its env (.ci/run does)")

    /// A client of the Python `websockets` server over `ws://`.
    static func client(_ configure: (inout NativeHTTPClient.Configuration) -> Void = { _ in }) throws
        -> BothamAPIClient
    {
        var configuration = NativeHTTPClient.Configuration()
        configure(&configuration)
        return BothamAPIClient(
            baseEndpoint: "ws://\(try #require(websockets))", httpClient: NativeHTTPClient(configuration: configuration)
        )
    }
}

/// Sends a text and a binary message on `socket` and expects an echo server to send both back, in order.
func expectTextAndBinaryEchoed(
    on socket: WebSocket, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    try await socket.send(.text("hello, wörld"))
    try await socket.send(.binary(Data([0, 1, 2, 255])))
    var iterator = socket.messages.makeAsyncIterator()
    #expect(try await iterator.next() == .text("hello, wörld"), sourceLocation: sourceLocation)
    #expect(try await iterator.next() == .binary(Data([0, 1, 2, 255])), sourceLocation: sourceLocation)
}

/// Adds a header to every request (what an auth interceptor does).
private struct AddHeader: BothamRequestInterceptor {
    let name: HTTPFieldName
    let value: String

    func intercept(request: HTTPRequest) -> HTTPRequest {
        request.withHeader(name, value)
    }
}

/// `NativeHTTPClient`'s WebSockets against the Python `websockets` server (which passes Autobahn itself) and nginx
/// proxying `wss://` to it, started by `scripts/ws-servers.sh` on loopback.
@Suite("WebSockets on NativeHTTPClient against websockets and nginx (loopback)", .timeLimit(.minutes(1)))
struct WebSocketInteropTests {
    @Test("an echoed text and binary message come back whole", WebSocketServers.needsWebsockets)
    func echo() async throws {
        let socket = try await WebSocketServers.client().webSocket("/echo")
        try await expectTextAndBinaryEchoed(on: socket)
        await socket.close()
        #expect(socket.closeCode == .normalClosure)
    }

    @Test(
        "a 1 MiB message and a compressible 4 MiB one round-trip with permessage-deflate negotiated",
        WebSocketServers.needsWebsockets)
    func largeAndCompressed() async throws {
        let socket = try await WebSocketServers.client().webSocket("/deflate")
        #expect(socket.response.headers["Sec-WebSocket-Extensions"]?.contains("permessage-deflate") == true)
        let random = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255) })
        let text = String(repeating: "botham networking ", count: (4 << 20) / 18)
        try await socket.send(.binary(random))
        try await socket.send(.text(text))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(random))
        #expect(try await iterator.next() == .text(text))
        await socket.close()
    }

    @Test("without compression no extension is negotiated and messages still flow", WebSocketServers.needsWebsockets)
    func uncompressed() async throws {
        let socket = try await WebSocketServers.client().webSocket(
            "/echo", options: WebSocket.Options(compression: false))
        #expect(socket.response.headers["Sec-WebSocket-Extensions"] == nil)
        try await socket.send(.text("plain"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("plain"))
        await socket.close()
    }

    @Test("the server's choice among the offered subprotocols is the socket's", WebSocketServers.needsWebsockets)
    func subprotocol() async throws {
        let socket = try await WebSocketServers.client().webSocket("/subprotocol", protocols: ["chat.v1", "chat.v2"])
        #expect(socket.subprotocol == "chat.v2")
        await socket.close()
    }

    @Test("a close from the server ends the messages with its code and reason", WebSocketServers.needsWebsockets)
    func serverClose() async throws {
        let socket = try await WebSocketServers.client().webSocket(
            "/close", parameters: ["code": "4001", "reason": "bye now"])
        var received: [WebSocket.Message] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received.isEmpty)
        #expect(socket.closeCode == .other(4001))
        #expect(socket.closeReason == "bye now")
    }

    @Test(
        "the handshake goes through the request interceptors: a 401 without the token, a socket with it",
        WebSocketServers.needsWebsockets)
    func authenticatedHandshake() async throws {
        let refused = try WebSocketServers.client()
        await #expect {
            _ = try await refused.webSocket("/auth")
        } throws: { error in
            (error as? APIClientError)?.statusCode == 401
        }
        let client = try WebSocketServers.client()
        client.requestInterceptors.append(AddHeader(name: .authorization, value: "Bearer good"))
        let socket = try await client.webSocket("/auth")
        try await socket.send(.text("in"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("in"))
        await socket.close()
    }

    @Test("the server sees the headers interceptors added to the handshake", WebSocketServers.needsWebsockets)
    func handshakeHeaders() async throws {
        let client = try WebSocketServers.client()
        client.requestInterceptors.append(AddHeader(name: "X-Trace", value: "abc123"))
        let socket = try await client.webSocket("/headers")
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let json) = try await iterator.next() else {
            Issue.record("expected the headers as text")
            return
        }
        let headers = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        let lowered = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        #expect(lowered["x-trace"] == "abc123")
        #expect(lowered["sec-websocket-version"] == "13")
        await socket.close()
    }

    @Test("a redirect before the upgrade is followed", WebSocketServers.needsWebsockets)
    func redirect() async throws {
        let socket = try await WebSocketServers.client().webSocket("/redirect")
        try await socket.send(.text("after redirect"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("after redirect"))
        await socket.close()
    }

    @Test("a ping is answered by the server's pong", WebSocketServers.needsWebsockets)
    func ping() async throws {
        let socket = try await WebSocketServers.client().webSocket("/echo")
        try await socket.ping()
        try await socket.ping()
        await socket.close()
    }

    @Test(
        "a server that never answers the close is given up on after the close timeout",
        WebSocketServers.needsWebsockets)
    func closeTimeout() async throws {
        let socket = try await WebSocketServers.client().webSocket(
            "/slowclose", options: WebSocket.Options(closeTimeout: .milliseconds(300)))
        let start = ContinuousClock.now
        await socket.close()
        #expect(ContinuousClock.now - start < TestTimeScale.scaled(.seconds(5), since: start))
        #expect(socket.closeCode == .abnormalClosure)
    }

    @Test("many 64 KiB messages read slowly all arrive, in order", WebSocketServers.needsWebsockets)
    func backPressure() async throws {
        let socket = try await WebSocketServers.client().webSocket("/count", parameters: ["n": "200"])
        var count = 0
        for try await message in socket.messages {
            guard case .binary(let data) = message else { break }
            #expect(data.count == 64 << 10)
            count += 1
            if count % 50 == 0 { await Task.yield() }
        }
        #expect(count == 200)
    }

    @Test(
        "closing with a code no endpoint may send (1005) sends a close without a code and returns",
        WebSocketServers.needsWebsockets)
    func closeWithoutCode() async throws {
        let socket = try await WebSocketServers.client().webSocket(
            "/echo", options: WebSocket.Options(closeTimeout: .seconds(20)))
        let start = ContinuousClock.now
        await socket.close(code: .noStatusReceived)
        #expect(ContinuousClock.now - start < TestTimeScale.scaled(.seconds(10), since: start))
        #expect(socket.closeCode == .noStatusReceived)
    }

    @Test("sending after close fails with a typed error", WebSocketServers.needsWebsockets)
    func sendAfterClose() async throws {
        let socket = try await WebSocketServers.client().webSocket("/echo")
        await socket.close()
        await #expect(throws: APIClientError.self) { try await socket.send(.text("late")) }
    }

    @Test("wss:// through nginx with the test CA and the server's pin", WebSocketServers.needsNginx)
    func secureThroughNginx() async throws {
        let address = try #require(WebSocketServers.nginx)
        let pin = try #require(WebSocketServers.pin)
        var configuration = NativeHTTPClient.Configuration()
        configuration.tls = TLSConfiguration(
            trustRoots: .pemFile(try #require(WebSocketServers.certificateAuthority)),
            pinnedPublicKeys: ["127.0.0.1": [pin]])
        let client = BothamAPIClient(
            baseEndpoint: "wss://\(address)", httpClient: NativeHTTPClient(configuration: configuration))
        let socket = try await client.webSocket("/echo")
        try await socket.send(.text("secure"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("secure"))
        await socket.close()
        #expect(socket.closeCode == .normalClosure)
    }

    @Test(
        "ws:// through a real HTTP proxy (tinyproxy, CONNECT) and a SOCKS5 proxy (danted) echoes",
        WebSocketServers.needsWebsockets,
        .enabled(
            if: ProxyTestEnvironment.httpProxy != nil && ProxyTestEnvironment.socksProxy != nil
                && ProxyTestEnvironment.httpProxyLog != nil,
            "BOTHAM_TEST_HTTP_PROXY or BOTHAM_TEST_SOCKS_PROXY unset: \(ProxyTestEnvironment.skipReason)"))
    func throughProxies() async throws {
        let address = try #require(WebSocketServers.websockets)
        // Through the HTTP proxy it must be a tunnel (a forwarding proxy may drop the upgrade): one more CONNECT
        // to the server in tinyproxy's log.
        func connects() -> Int {
            ProxyTestEnvironment.logLines(ProxyTestEnvironment.httpProxyLog).count {
                $0.contains("CONNECT \(address) ")
            }
        }
        let connectsBefore = connects()
        for proxyURL in [ProxyTestEnvironment.httpProxy, ProxyTestEnvironment.socksProxy] {
            let proxy = try ProxyTestEnvironment.proxy(proxyURL)
            let socket = try await WebSocketServers.client { $0.proxy = .all(proxy) }.webSocket("/echo")
            try await socket.send(.text("via \(proxy.kind)"))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text("via \(proxy.kind)"))
            await socket.close()
            #expect(socket.closeCode == .normalClosure)
        }
        #expect(connects() == connectsBefore + 1, "tinyproxy's log has no new CONNECT to \(address)")
    }

    @Test(
        "through an authenticating HTTP proxy the handshake is tunnelled: the server never sees Proxy-Authorization",
        WebSocketServers.needsWebsockets,
        .enabled(
            if: ProxyTestEnvironment.httpProxyWithAuthentication != nil,
            "BOTHAM_TEST_HTTP_PROXY_AUTH unset: \(ProxyTestEnvironment.skipReason)"))
    func proxyCredentialsStayWithTheProxy() async throws {
        let proxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxyWithAuthentication)
        let socket = try await WebSocketServers.client { $0.proxy = .all(proxy) }.webSocket("/headers")
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let json) = try await iterator.next() else {
            Issue.record("expected the headers as text")
            return
        }
        let headers = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(!headers.keys.contains { $0.lowercased() == "proxy-authorization" })
        #expect(headers.keys.contains { $0.lowercased() == "sec-websocket-key" })
        await socket.close()
    }

    @Test("wss:// with a pin that does not match never opens", WebSocketServers.needsNginx)
    func wrongPin() async throws {
        let address = try #require(WebSocketServers.nginx)
        var configuration = NativeHTTPClient.Configuration()
        configuration.tls = TLSConfiguration(
            trustRoots: .pemFile(try #require(WebSocketServers.certificateAuthority)),
            pinnedPublicKeys: ["127.0.0.1": ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="]])
        let client = BothamAPIClient(
            baseEndpoint: "wss://\(address)", httpClient: NativeHTTPClient(configuration: configuration))
        await #expect(throws: APIClientError.self) { _ = try await client.webSocket("/echo") }
    }
}
