import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// A per-service chat client, as an app writes one on top of `BothamAPIClient.webSocket(...)`.
private struct ChatClient {
    let apiClient: BothamAPIClient

    func join(_ room: String, options: WebSocket.Options = WebSocket.Options()) async throws(APIClientError)
        -> ChatRoom
    {
        ChatRoom(socket: try await apiClient.webSocket("/rooms/\(room)", protocols: ["chat.v1"], options: options))
    }
}

private struct ChatRoom {
    let socket: WebSocket

    func say(_ line: String) async throws(APIClientError) {
        try await socket.send(.text(line))
    }

    /// The next text line, `nil` once the room closed.
    func nextLine() async throws(APIClientError) -> String? {
        for try await message in socket.messages {
            if case .text(let line) = message { return line }
        }
        return nil
    }

    func leave() async {
        await socket.close(code: .normalClosure, reason: "bye")
    }
}

/// Adds the session's token, as an app's auth interceptor does.
private struct TokenInterceptor: BothamRequestInterceptor {
    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        request.appendingHeaders(["Authorization": "Bearer t0ken"])
    }
}

@Suite("StubResponse.webSocket: a chat client tested without a network", .timeLimit(.minutes(1)))
struct StubWebSocketTests {
    let stub: StubHTTPClient
    let apiClient: BothamAPIClient
    fileprivate let chat: ChatClient

    init(latency: StubHTTPClient.LatencyMode, clock: any HTTPClock) {
        stub = StubHTTPClient(latency: latency)
        apiClient = BothamAPIClient(
            baseEndpoint: "https://chat.example.com/v1", httpClient: stub, configuration: .init(clock: clock))
        apiClient.requestInterceptors.append(TokenInterceptor())
        chat = ChatClient(apiClient: apiClient)
    }

    init() {
        self.init(latency: .virtual, clock: .system)
    }

    @Test(
        "the handshake is a call: the stub sees the interceptor's header, records it, and chooses the offered protocol")
    func handshakeThroughInterceptors() async throws {
        stub.stub(
            .path("/rooms/swift"),
            with: .webSocket(subprotocol: "chat.v1") { peer in
                try await peer.send(.text(peer.request.header(.authorization) ?? "no token"))
                try await peer.send(.text(peer.request.path))
            })
        let room = try await chat.join("swift")
        #expect(try await room.nextLine() == "Bearer t0ken")
        #expect(try await room.nextLine() == "/v1/rooms/swift")
        #expect(room.socket.subprotocol == "chat.v1")
        #expect(room.socket.response.statusCode == 101)
        #expect(room.socket.response.headers[HTTPFieldName("Sec-WebSocket-Protocol")] == "chat.v1")
        let recorded = try #require(stub.receivedRequests.last)
        #expect(recorded.headers[.authorization] == "Bearer t0ken")
        #expect(recorded.headers[HTTPFieldName("Upgrade")] == "websocket")
    }

    @Test("a protocol the client did not offer is not chosen: the 101 names none")
    func protocolNotOffered() async throws {
        stub.stub(with: .webSocket(subprotocol: "chat.v9") { _ in })
        let room = try await chat.join("swift")
        #expect(room.socket.subprotocol == nil)
        #expect(room.socket.response.headers[HTTPFieldName("Sec-WebSocket-Protocol")] == nil)
    }

    @Test("echo: the client's lines come back in order; its close ends the peer's messages with the code")
    func echo() async throws {
        let (closeCodes, report) = AsyncStream.makeStream(of: WebSocket.CloseCode?.self)
        stub.stub(
            with: .webSocket { peer in
                while let message = try await peer.receive() { try await peer.send(message) }
                report.yield(peer.closeCode)
                report.finish()
            })
        let room = try await chat.join("swift")
        for line in ["hello", "how are you?", "bye"] {
            try await room.say(line)
            #expect(try await room.nextLine() == line)
        }
        try await room.socket.send(.binary(Data([1, 2, 3])))
        var iterator = room.socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(Data([1, 2, 3])))
        await room.leave()
        #expect(room.socket.closeCode == .normalClosure)
        var codes = closeCodes.makeAsyncIterator()
        #expect(await codes.next() == .normalClosure)
        await #expect(throws: APIClientError.self) { try await room.say("too late") }
    }

    @Test("scripted server messages, then the server's close: the messages end with its code and reason")
    func serverClose() async throws {
        stub.stub(
            with: .webSocket { peer in
                try await peer.send(.text("welcome"))
                try await peer.send(.text("the room closes now"))
                try await peer.close(code: .other(4000), reason: "room closed")
            })
        let room = try await chat.join("swift")
        #expect(try await room.nextLine() == "welcome")
        #expect(try await room.nextLine() == "the room closes now")
        #expect(try await room.nextLine() == nil)
        #expect(room.socket.closeCode == .other(4000))
        #expect(room.socket.closeReason == "room closed")
    }

    @Test("a script that returns closes with 1000; one that throws closes with 1011 and its error")
    func scriptEnds() async throws {
        struct Boom: Error {}
        stub.stub(.path("/rooms/done"), with: .webSocket { peer in try await peer.send(.text("last words")) })
        stub.stub(.path("/rooms/boom"), with: .webSocket { _ in throw Boom() })
        let done = try await chat.join("done")
        #expect(try await done.nextLine() == "last words")
        #expect(try await done.nextLine() == nil)
        #expect(done.socket.closeCode == .normalClosure)
        let boom = try await chat.join("boom")
        #expect(try await boom.nextLine() == nil)
        #expect(boom.socket.closeCode == .internalServerError)
        #expect(boom.socket.closeReason == "Boom()")
    }

    @Test("pings are answered; after .ignorePings a ping waits until the socket ends, then fails")
    func pings() async throws {
        let (ignoring, ignored) = AsyncStream.makeStream(of: Void.self)
        stub.stub(
            with: .webSocket { peer in
                _ = try await peer.receive()
                try await peer.inject(.ignorePings)
                ignored.yield()
                _ = try await peer.receive()
                try await peer.close(code: .goingAway)
            })
        let room = try await chat.join("swift")
        try await room.socket.ping()
        try await room.say("now ignore my pings")
        var iterator = ignoring.makeAsyncIterator()
        await iterator.next()
        let unanswered = Task { try await room.socket.ping() }
        try await room.say("and close")
        await #expect(throws: APIClientError.self) { try await unanswered.value }
        #expect(room.socket.closeCode == .goingAway)
    }

    @Test("a peer that ignores the close: close returns after closeTimeout, counted as virtual latency, with 1006")
    func closeTimeoutVirtual() async throws {
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        defer { release.finish() }
        stub.stub(
            with: .webSocket { peer in
                try await peer.inject(.ignoreClose)
                try await peer.send(.text("ready"))
                while try await peer.receive() != nil {}
                for await _ in held {}  // the connection stays open, the close unanswered
            })
        let room = try await chat.join("swift", options: WebSocket.Options(closeTimeout: .seconds(7)))
        #expect(try await room.nextLine() == "ready")
        await room.leave()
        #expect(room.socket.closeCode == .abnormalClosure)
        #expect(stub.virtualTimeElapsed == .seconds(7))
    }

    @Test("a script that ends without answering the client's close drops the connection: 1006, connectionLost")
    func scriptEndsDuringClose() async throws {
        stub.stub(
            with: .webSocket { peer in
                try await peer.inject(.ignoreClose)
                try await peer.send(.text("ready"))
                while try await peer.receive() != nil {}
            })
        let room = try await chat.join("swift")
        #expect(try await room.nextLine() == "ready")
        await room.leave()
        #expect(room.socket.closeCode == .abnormalClosure)
        await #expect {
            _ = try await room.nextLine()
        } throws: { error in
            guard case .networkError(let failure)? = error as? APIClientError else { return false }
            return failure.kind == .connectionLost
        }
    }

    @Test("with LatencyMode.clock the close timeout is slept on the call's clock")
    func closeTimeoutOnClock() async throws {
        let clock = VirtualClock()
        let test = StubWebSocketTests(latency: .clock, clock: clock)
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        defer { release.finish() }
        test.stub.stub(
            with: .webSocket { peer in
                try await peer.inject(.ignoreClose)
                try await peer.send(.text("ready"))
                while try await peer.receive() != nil {}
                for await _ in held {}  // the connection stays open, the close unanswered
            })
        let room = try await test.chat.join("swift", options: WebSocket.Options(closeTimeout: .seconds(7)))
        #expect(try await room.nextLine() == "ready")
        async let closed: Void = room.leave()
        try await clock.waitForSleepers(1)
        #expect(room.socket.closeCode == nil, "still waiting for the peer's answer")
        await clock.advance(by: .seconds(7))
        await closed
        #expect(room.socket.closeCode == .abnormalClosure)
    }

    @Test(
        "faults are reported as the native transport reports them, and the peer sees the client's close code",
        arguments: [
            (WebSocketPeer.Fault.dropConnection, APIClientError.NetworkFailure.Kind.connectionLost, 1006, nil),
            (.invalidUTF8Text, .badServerResponse, 1007, 1007),
            (.rawBytes([0x8F, 0x00]), .badServerResponse, 1002, 1002),
            (.oversizedMessage(2048), .responseTooLarge, 1009, 1009),
        ] as [(WebSocketPeer.Fault, APIClientError.NetworkFailure.Kind, UInt16, UInt16?)])
    func faults(
        fault: WebSocketPeer.Fault, kind: APIClientError.NetworkFailure.Kind, clientCode: UInt16, peerCode: UInt16?
    ) async throws {
        let (closeCodes, report) = AsyncStream.makeStream(of: WebSocket.CloseCode?.self)
        stub.stub(
            with: .webSocket { peer in
                try await peer.send(.text("before"))
                try await peer.inject(fault)
                #expect(try await peer.receive() == nil)
                report.yield(peer.closeCode)
                report.finish()
            })
        let room = try await chat.join("swift", options: WebSocket.Options(maxMessageSize: 1024))
        #expect(try await room.nextLine() == "before")
        do {
            _ = try await room.nextLine()
            Issue.record("the fault was not reported")
        } catch {
            guard case .networkError(let failure) = error else {
                Issue.record("not a network error: \(error)")
                return
            }
            #expect(failure.kind == kind)
        }
        #expect(room.socket.closeCode?.rawValue == clientCode)
        var codes = closeCodes.makeAsyncIterator()
        #expect(await codes.next()??.rawValue == peerCode)
    }

    @Test("a message within maxMessageSize passes, a sent one over it fails the client with 1009")
    func messageSize() async throws {
        stub.stub(
            with: .webSocket { peer in
                try await peer.inject(.oversizedMessage(1024))
                try await peer.send(.binary(Data(count: 1025)))
            })
        let room = try await chat.join("swift", options: WebSocket.Options(maxMessageSize: 1024))
        var iterator = room.socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(Data(count: 1024)))
        await #expect(throws: APIClientError.self) { try await iterator.next() }
        #expect(room.socket.closeCode == .messageTooBig)
    }

    @Test("an unread message holds the peer back: a send that leaves over 256 KiB unread waits until the client reads")
    func backPressure() async throws {
        let (sent, report) = AsyncStream.makeStream(of: Int.self)
        let sends = Recorder<Int>()
        let chunk = Data(count: 180 << 10)
        stub.stub(
            with: .webSocket { peer in
                for index in 1...3 {
                    try await peer.send(.binary(chunk))
                    sends.append(index)
                    report.yield(index)
                }
            })
        let room = try await chat.join("swift")
        var reports = sent.makeAsyncIterator()
        #expect(await reports.next() == 1)
        for _ in 0..<500 { await Task.yield() }
        #expect(sends.values == [1], "the second send (360 KiB unread) waits for the client to read")
        var iterator = room.socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(chunk))
        #expect(await reports.next() == 2)
        #expect(try await iterator.next() == .binary(chunk))
        #expect(await reports.next() == 3)
        #expect(try await iterator.next() == .binary(chunk))
    }

    @Test("a stub that is not a WebSocket answering the handshake gives the facade's typed error")
    func notAWebSocket() async throws {
        stub.stub(.path("/rooms/plain"), with: .text("hello"))
        stub.stub(.path("/rooms/bare101"), with: .response(statusCode: 101))
        await #expect {
            _ = try await chat.join("plain")
        } throws: { error in
            guard case .httpResponseError(let response)? = error as? APIClientError else { return false }
            return response.statusCode == 200
        }
        await #expect {
            _ = try await chat.join("bare101")
        } throws: { error in
            guard case .networkError(let failure)? = error as? APIClientError else { return false }
            return failure.kind == .badServerResponse
        }
    }

    @Test("a request that asks for no WebSocket gets 426 Upgrade Required")
    func plainRequest() async throws {
        stub.stub(with: .webSocket { _ in Issue.record("no script runs for a plain request") })
        let response = await apiClient.send(HTTPRequest(method: .get, baseEndpoint: apiClient.baseEndpoint, path: "/x"))
        guard case .failure(.httpResponseError(let refused)) = response else {
            Issue.record("expected a 426, got \(response)")
            return
        }
        #expect(refused.statusCode == 426)
    }

    @Test("dropping the socket closes it with 1001, which the peer sees")
    func dropped() async throws {
        let (closeCodes, report) = AsyncStream.makeStream(of: WebSocket.CloseCode?.self)
        stub.stub(
            with: .webSocket { peer async throws in
                #expect(try await peer.receive() == .text("one line"))
                #expect(try await peer.receive() == nil)
                report.yield(peer.closeCode)
                report.finish()
            })
        do {
            let room = try await chat.join("swift")
            try await room.say("one line")
        }
        var codes = closeCodes.makeAsyncIterator()
        #expect(await codes.next() == .goingAway)
    }
}
