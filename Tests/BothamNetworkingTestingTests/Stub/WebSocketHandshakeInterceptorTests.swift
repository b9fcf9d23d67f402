import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// A WebSocket handshake is a `GET` that opens a connection of its own: the cache and request coalescing, which
/// share `GET` responses, must leave it alone.
@Suite("The cache and request coalescing leave WebSocket handshakes alone", .timeLimit(.minutes(1)))
struct WebSocketHandshakeInterceptorTests {
    let stub = StubHTTPClient()

    /// The next text message of `socket`.
    private static func firstText(_ socket: WebSocket) async throws -> String? {
        for try await message in socket.messages {
            if case .text(let text) = message { return text }
        }
        return nil
    }

    @Test("a fresh cached GET of the same URL is not served to the handshake: it reaches the server and opens")
    func cacheBypassed() async throws {
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
        stub.stub(
            .path("/feed"),
            with: .text("cached", headers: ["Cache-Control": "max-age=600"]),
            .webSocket { peer in try await peer.send(.text("live")) })

        #expect(try await apiClient.GET("/feed").get().statusCode == 200)
        let socket = try await apiClient.webSocket("/feed")

        #expect(try await Self.firstText(socket) == "live")
        #expect(stub.receivedRequests.count == 2)
    }

    @Test("two handshakes to one URL in flight at once are two requests and two sockets, never one shared")
    func coalescingBypassed() async throws {
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.interceptors.append(RequestCoalescingInterceptor())
        let opened = Lock(0)
        stub.stub(
            .path("/feed"),
            with: .webSocket { peer in
                let number = opened.withLock { count in
                    count += 1
                    return count
                }
                try await peer.send(.text("socket \(number)"))
            })
        let gate = stub.hold(.path("/feed"), next: 2)

        async let first = apiClient.webSocket("/feed")
        async let second = apiClient.webSocket("/feed")
        try await gate.waitUntilHeld(2, timeout: .seconds(10))
        gate.releaseAll()
        let sockets = try await [first, second]

        let texts = try await [Self.firstText(sockets[0]), Self.firstText(sockets[1])]
        #expect(Set(texts.compactMap { $0 }) == ["socket 1", "socket 2"])
    }
}
