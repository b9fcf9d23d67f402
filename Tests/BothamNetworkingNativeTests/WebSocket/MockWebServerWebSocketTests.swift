import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// `MockWebServer`'s WebSockets (`MockResponse.webSocket`), driven by `NativeHTTPClient`: scripts, the handshake,
/// close codes both ways, and each fault with the typed outcome the client must report.
@Suite("MockWebServer speaks WebSocket to NativeHTTPClient (loopback)", .timeLimit(.minutes(1)))
struct MockWebServerWebSocketTests {
    let server: MockWebServer
    let apiClient: BothamAPIClient

    init() throws {
        server = try MockWebServer()
        apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
    }

    /// The client's close code as the script saw it once `receive()` returned `nil`, reported when the script ends.
    private static func awaitPeerCloseCode(
        _ recorder: Recorder<WebSocket.CloseCode?>
    ) async -> WebSocket.CloseCode?? {
        guard await eventually(within: .seconds(15), { recorder.count > 0 }) else { return .none }
        return .some(recorder.last ?? nil)
    }

    @Test("an echo script returns every message and the client's close reaches it; the handshake is recorded")
    func echo() async throws {
        defer { server.shutdown() }
        let closeCodes = Recorder<WebSocket.CloseCode?>()
        server.enqueue(
            .webSocket { peer in
                while let message = try await peer.receive() { try await peer.send(message) }
                closeCodes.append(peer.closeCode)
            })

        let socket = try await apiClient.webSocket("/echo", parameters: ["room": "1"])
        try await expectTextAndBinaryEchoed(on: socket)
        await socket.close(code: .other(4001), reason: "done")

        #expect(socket.closeCode == .other(4001))
        #expect(await Self.awaitPeerCloseCode(closeCodes) == .some(.other(4001)))
        let request = try await server.takeRequest()
        #expect(request.path == "/echo")
        #expect(request.header("Upgrade") == "websocket")
        #expect(request.header("Sec-WebSocket-Key") != nil)
    }

    @Test("a ping returns with the peer's pong; one the peer ignores waits until the socket ends, then fails")
    func pingWaitsForPong() async throws {
        defer { server.shutdown() }
        let (ignoring, ignored) = AsyncStream.makeStream(of: Void.self)
        server.enqueue(
            .webSocket { peer in
                _ = try await peer.receive()
                try await peer.inject(.ignorePings)
                ignored.yield()
                _ = try await peer.receive()
                try await peer.close(code: .goingAway)
            })

        let socket = try await apiClient.webSocket("/ping")
        try await socket.ping()
        try await socket.send(.text("now ignore my pings"))
        var iterator = ignoring.makeAsyncIterator()
        await iterator.next()
        let ended = Recorder<Bool>()
        let unanswered = Task {
            defer { ended.append(true) }
            try await socket.ping()
        }
        // Not a synchronisation: a window in which a ping that does not wait for its pong would have returned.
        try await Task.sleep(for: .milliseconds(300))
        #expect(ended.values.isEmpty, "the unanswered ping waits for its pong")
        try await socket.send(.text("and close"))

        await #expect(throws: APIClientError.self) { try await unanswered.value }
        #expect(socket.closeCode == .goingAway)
    }

    @Test("scripted messages arrive in order, then the script's end closes the socket with 1000")
    func scripted() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("welcome"))
                try await peer.send(.binary(Data(repeating: 7, count: 100_000)))
            })

        let socket = try await apiClient.webSocket("/feed")
        var received: [WebSocket.Message] = []
        for try await message in socket.messages { received.append(message) }

        #expect(received == [.text("welcome"), .binary(Data(repeating: 7, count: 100_000))])
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("a script that throws closes the socket with 1011")
    func scriptThrows() async throws {
        defer { server.shutdown() }
        struct Broken: Error {}
        server.enqueue(.webSocket { _ in throw Broken() })

        let socket = try await apiClient.webSocket("/broken")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == nil)

        #expect(socket.closeCode == .internalServerError)
        #expect(socket.closeReason?.hasPrefix("the script threw") == true)
    }

    @Test("the server picks its subprotocol among those offered, and deflate only when both sides want it")
    func negotiation() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket(subprotocol: "chat.v2") { peer in try await peer.send(.text("hi")) })
        server.enqueue(.webSocket(compression: false) { peer in try await peer.send(.text("hi")) })

        let chat = try await apiClient.webSocket("/a", protocols: ["chat.v1", "chat.v2"])
        let plain = try await apiClient.webSocket("/b", protocols: ["chat.v2"])

        #expect(chat.subprotocol == "chat.v2")
        #expect(chat.response.statusCode == 101)
        #expect(chat.response.headers["Sec-WebSocket-Extensions"]?.hasPrefix("permessage-deflate") == true)
        #expect(plain.subprotocol == nil)
        #expect(plain.response.headers["Sec-WebSocket-Extensions"] == nil)
        for socket in [chat, plain] {
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text("hi"))
        }
    }

    @Test("a request that is not a WebSocket handshake gets 400")
    func badHandshake() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { _ in })

        let result = await apiClient.send(apiClient.request(.get, "/plain"))

        switch result {
        case .success(let response): #expect(response.statusCode == 400)
        case .failure(.httpResponseError(let response)): #expect(response.statusCode == 400)
        case .failure(let error): Issue.record("expected a 400, got \(error)")
        }
    }

    @Test("the server's close code and reason reach socket.closeCode and closeReason")
    func serverClose() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in try await peer.close(code: .policyViolation, reason: "go away") })

        let socket = try await apiClient.webSocket("/closing")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == nil)

        #expect(socket.closeCode == .policyViolation)
        #expect(socket.closeReason == "go away")
    }

    @Test("pings are answered with pongs")
    func pings() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in _ = try await peer.receive() })

        let socket = try await apiClient.webSocket("/ping")
        try await socket.ping()
        try await socket.ping()
        await socket.close()

        #expect(socket.closeCode == .normalClosure)
    }

    @Test("a dropped connection fails the messages with connectionLost and closeCode abnormalClosure")
    func dropConnection() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("before"))
                try await peer.inject(.dropConnection)
            })

        let socket = try await apiClient.webSocket("/drop")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("before"))
        await #expect {
            _ = try await iterator.next()
        } throws: { error in
            failureKind(error) == .connectionLost
        }

        #expect(socket.closeCode == .abnormalClosure)
    }

    /// Frames a client must refuse with 1002: masked (a server never masks), RSV2 set, opcode 3 (reserved).
    static let badFrames: [[UInt8]] = [
        [0x81, 0x82, 0x01, 0x02, 0x03, 0x04, 0x68 ^ 0x01, 0x69 ^ 0x02],
        [0xA1, 0x02, 0x68, 0x69],
        [0x83, 0x00],
    ]

    @Test(
        "a masked frame, a reserved bit or a reserved opcode fails with badServerResponse and 1002 both ways",
        arguments: badFrames)
    func badFrame(frame: [UInt8]) async throws {
        defer { server.shutdown() }
        let closeCodes = Recorder<WebSocket.CloseCode?>()
        server.enqueue(
            .webSocket { peer in
                try await peer.inject(.rawBytes(frame))
                _ = try await peer.receive()
                closeCodes.append(peer.closeCode)
            })

        let socket = try await apiClient.webSocket("/bad")
        await #expect {
            for try await _ in socket.messages {}
        } throws: { error in
            failureKind(error) == .badServerResponse
        }

        #expect(socket.closeCode == .protocolError)
        #expect(await Self.awaitPeerCloseCode(closeCodes) == .some(.protocolError))
    }

    @Test("a text message that is not UTF-8 fails with badServerResponse and 1007 both ways")
    func invalidUTF8() async throws {
        defer { server.shutdown() }
        let closeCodes = Recorder<WebSocket.CloseCode?>()
        server.enqueue(
            .webSocket { peer in
                try await peer.inject(.invalidUTF8Text)
                _ = try await peer.receive()
                closeCodes.append(peer.closeCode)
            })

        let socket = try await apiClient.webSocket("/utf8")
        await #expect {
            for try await _ in socket.messages {}
        } throws: { error in
            failureKind(error) == .badServerResponse
        }

        #expect(socket.closeCode == .invalidFramePayloadData)
        #expect(await Self.awaitPeerCloseCode(closeCodes) == .some(.invalidFramePayloadData))
    }

    @Test("a message over Options.maxMessageSize fails with responseTooLarge and 1009 both ways")
    func oversized() async throws {
        defer { server.shutdown() }
        let closeCodes = Recorder<WebSocket.CloseCode?>()
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.binary(Data(repeating: 1, count: 1024)))
                try await peer.inject(.oversizedMessage(64 * 1024))
                _ = try await peer.receive()
                closeCodes.append(peer.closeCode)
            })

        let socket = try await apiClient.webSocket("/big", options: WebSocket.Options(maxMessageSize: 1024))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(Data(repeating: 1, count: 1024)))
        await #expect {
            _ = try await iterator.next()
        } throws: { error in
            failureKind(error) == .responseTooLarge
        }

        #expect(socket.closeCode == .messageTooBig)
        #expect(await Self.awaitPeerCloseCode(closeCodes) == .some(.messageTooBig))
    }

    @Test("a server that never answers the close lets close() return after Options.closeTimeout, abnormalClosure")
    func ignoreClose() async throws {
        defer { server.shutdown() }
        let closeCodes = Recorder<WebSocket.CloseCode?>()
        server.enqueue(
            .webSocket { peer in
                try await peer.inject(.ignoreClose)
                try await peer.send(.text("ready"))
                _ = try await peer.receive()
                closeCodes.append(peer.closeCode)
            })
        let closeTimeout = Duration.milliseconds(300)

        let socket = try await apiClient.webSocket("/mute", options: WebSocket.Options(closeTimeout: closeTimeout))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("ready"))
        let start = ContinuousClock.now
        await socket.close()
        let elapsed = ContinuousClock.now - start

        #expect(elapsed >= closeTimeout)
        #expect(elapsed < TestTimeScale.scaled(.seconds(5)))
        #expect(socket.closeCode == .abnormalClosure)
        #expect(await Self.awaitPeerCloseCode(closeCodes) == .some(.normalClosure))
    }

    @Test("a server that never pongs is found dead by the keep-alive: the messages fail with connectionLost")
    func ignorePings() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                // "ready" first: a ping before it (a loaded machine may delay the script) is still answered.
                try await peer.send(.text("ready"))
                try await peer.inject(.ignorePings)
                _ = try await peer.receive()
            })

        let socket = try await apiClient.webSocket(
            "/deaf", options: WebSocket.Options(pingInterval: TestTimeScale.scaled(.seconds(1))))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("ready"))
        await #expect {
            _ = try await iterator.next()
        } throws: { error in
            failureKind(error) == .connectionLost
        }

        #expect(socket.closeCode == .abnormalClosure)
    }

    @Test("shutdown ends a WebSocket whose script waits, joins its thread and closes its descriptors")
    func shutdown() async throws {
        let errors = Recorder<String>()
        server.enqueue(
            .webSocket { peer in
                do {
                    _ = try await peer.receive()
                } catch {
                    errors.append("\(error)")
                }
            })
        let socket = try await apiClient.webSocket("/wait")
        #expect(server.runningThreadCount >= 2)

        server.shutdown()

        #expect(await eventually(within: .seconds(5)) { errors.count == 1 })
        #expect(errors.values == ["\(MockWebServerError.serverShutDown)"])

        #expect(server.runningThreadCount == 0)
        #expect(server.openDescriptorCount == 0)
        await #expect {
            for try await _ in socket.messages {}
        } throws: { error in
            failureKind(error) == .connectionLost
        }
    }
}

/// The network failure kind of `error`, when it is `APIClientError.networkError`.
private func failureKind(_ error: any Error) -> APIClientError.NetworkFailure.Kind? {
    guard case .networkError(let failure) = error as? APIClientError else { return nil }
    return failure.kind
}
