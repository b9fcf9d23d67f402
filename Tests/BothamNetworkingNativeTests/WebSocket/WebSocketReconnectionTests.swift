import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// `WebSocket.Options.reconnection` against MockWebServer: what reopens a socket, what does not, and the handshake
/// going through the interceptors again.
@Suite("A WebSocket with reconnection opens again after a lost connection, and only then", .timeLimit(.minutes(1)))
struct WebSocketReconnectionTests {
    let server: MockWebServer
    let apiClient: BothamAPIClient
    static let reconnecting = WebSocket.Options(
        reconnection: WebSocket.Reconnection(maxAttempts: 3, initialDelay: .milliseconds(10)))

    init() throws {
        server = try MockWebServer()
        apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
    }

    /// Every message until the sequence ends, and how it ended.
    private static func drain(_ socket: WebSocket) async -> (texts: [String], error: APIClientError?) {
        var texts: [String] = []
        do {
            for try await message in socket.messages {
                if case .text(let text) = message { texts.append(text) }
            }
            return (texts, nil)
        } catch {
            return (texts, error)
        }
    }

    @Test("a dropped connection is opened again and the messages carry on")
    func reopensAfterDrop() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("one"))
                try await peer.inject(.dropConnection)
            })
        server.enqueue(.webSocket { peer in try await peer.send(.text("two")) })

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        let (texts, error) = await Self.drain(socket)

        #expect(texts == ["one", "two"])
        #expect(error == nil)
        #expect(socket.closeCode == .normalClosure)
        #expect(server.requestCount == 2)
    }

    @Test("the waits before the attempts double from initialDelay, on the client's clock")
    func waitsDoubleOnTheClientsClock() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in try await peer.inject(.dropConnection) })
        for _ in 0..<3 { server.enqueue(MockResponse(statusCode: 503)) }
        let clock = VirtualClock(sleeping: .advancesClock)
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient(),
            configuration: .init(clock: clock))

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        _ = await Self.drain(socket)

        #expect(clock.sleeps.map { Int(($0 / .milliseconds(1)).rounded()) } == [10, 20, 40])
        #expect(server.requestCount == 4)
    }

    @Test(
        "a server that takes every handshake and drops at once is tried maxAttempts times, the waits still doubling")
    func immediateDropsSpendTheAttempts() async throws {
        defer { server.shutdown() }
        for _ in 0..<6 { server.enqueue(.webSocket { peer in try await peer.inject(.dropConnection) }) }
        let clock = VirtualClock(sleeping: .advancesClock)
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient(),
            configuration: .init(clock: clock))

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        let (texts, error) = await Self.drain(socket)

        #expect(texts.isEmpty)
        #expect(clock.sleeps.map { Int(($0 / .milliseconds(1)).rounded()) } == [10, 20, 40])
        #expect(server.requestCount == 4, "the first connection and 3 attempts")
        guard case .networkError(let failure) = error else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost)
    }

    @Test("a connection open for maxDelay counts as a success though no message came: quiet feeds carry on")
    func longLivedConnectionsResetTheAttempts() async throws {
        defer { server.shutdown() }
        let clock = VirtualClock(sleeping: .advancesClock)
        // Each connection lasts 100 ms on the client's clock (from before its handshake), then drops: more times in a
        // row than maxAttempts allows, and then a message comes.
        for _ in 0..<4 {
            server.enqueue(
                .webSocket { peer in
                    await clock.advance(by: .milliseconds(100))
                    try await peer.inject(.dropConnection)
                })
        }
        server.enqueue(.webSocket { peer in try await peer.send(.text("finally")) })
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient(),
            configuration: .init(clock: clock))
        let options = WebSocket.Options(
            reconnection: WebSocket.Reconnection(
                maxAttempts: 2, initialDelay: .milliseconds(10), maxDelay: .milliseconds(50)))

        let socket = try await apiClient.webSocket("/feed", options: options)
        let (texts, error) = await Self.drain(socket)

        #expect(texts == ["finally"])
        #expect(error == nil)
        #expect(server.requestCount == 5)
        #expect(clock.sleeps.map { Int(($0 / .milliseconds(1)).rounded()) } == [10, 10, 10, 10], "no doubling")
    }

    @Test("closing during the wait before a reconnection ends the messages without another handshake")
    func closeDuringTheWait() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in try await peer.inject(.dropConnection) })
        server.enqueue(.webSocket { peer in try await peer.send(.text("too late")) })
        let clock = VirtualClock()
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient(),
            configuration: .init(clock: clock))

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        async let drained = Self.drain(socket)
        try await clock.waitForSleepers(1, timeout: .seconds(10))
        await socket.close()
        await clock.advance(by: .seconds(1))
        let (texts, error) = await drained

        #expect(texts.isEmpty)
        #expect(error == nil)
        #expect(server.requestCount == 1, "no handshake after the close")
    }

    @Test("a server's 1001 Going Away reopens; its 1000 ends the messages for good")
    func goingAwayReopensNormalEnds() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("before restart"))
                try await peer.close(code: .goingAway, reason: "restarting")
            })
        server.enqueue(.webSocket { peer in try await peer.send(.text("after restart")) })

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        let (texts, error) = await Self.drain(socket)

        #expect(texts == ["before restart", "after restart"])
        #expect(error == nil)
        #expect(server.requestCount == 2)
    }

    @Test("without the option a dropped connection ends the messages with connectionLost")
    func offByDefault() async throws {
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("one"))
                try await peer.inject(.dropConnection)
            })

        let socket = try await apiClient.webSocket("/feed")
        let (texts, error) = await Self.drain(socket)

        #expect(texts == ["one"])
        guard case .networkError(let failure) = error else {
            Issue.record("expected connectionLost, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost)
        #expect(server.requestCount == 1)
    }

    @Test("when every attempt fails, the messages end with the last attempt's error after maxAttempts")
    func attemptsSpent() async throws {
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in try await peer.inject(.dropConnection) })
        for _ in 0..<3 { server.enqueue(MockResponse(statusCode: 503)) }

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        let (_, error) = await Self.drain(socket)

        #expect(error?.statusCode == 503)
        #expect(server.requestCount == 4)
    }

    @Test("each reconnection's handshake goes through the interceptors again")
    func handshakeAgainThroughInterceptors() async throws {
        defer { server.shutdown() }
        let counter = Recorder<Int>()
        apiClient.requestInterceptors.append(CountingInterceptor(counter: counter))
        server.enqueue(.webSocket { peer in try await peer.inject(.dropConnection) })
        server.enqueue(.webSocket { peer in try await peer.send(.text("back")) })

        let socket = try await apiClient.webSocket("/feed", options: Self.reconnecting)
        let (texts, _) = await Self.drain(socket)

        #expect(texts == ["back"])
        #expect(counter.count == 2)
        _ = try await server.takeRequest()
        let second = try await server.takeRequest()
        #expect(second.header("X-Attempt") == "2")
    }
}

/// Adds `X-Attempt: N` to the Nth request it sees.
private struct CountingInterceptor: BothamRequestInterceptor {
    let counter: Recorder<Int>

    func intercept(request: HTTPRequest) -> HTTPRequest {
        counter.append(counter.count + 1)
        return request.withHeader("X-Attempt", "\(counter.count)")
    }
}
