import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The handshake is a call: what the client does for any call before the upgrade (retry, token refresh) it does for
/// a WebSocket's, and a `101` that breaks RFC 6455 §4.1 never opens a socket. NativeHTTPClient against MockWebServer.
@Suite("A WebSocket handshake is retried, refreshed and checked like a call", .timeLimit(.minutes(1)))
struct WebSocketHandshakeCallTests {
    let server: MockWebServer
    let apiClient: BothamAPIClient

    init() throws {
        server = try MockWebServer()
        apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
    }

    @Test("a 503 before the upgrade is retried by RetryPolicy, then the socket opens")
    func retriedAfter503() async throws {
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 503).withHeader("Retry-After", "0"))
        server.enqueue(.webSocket { peer in try await peer.send(.text("open")) })
        apiClient.configuration.retrier = RetryPolicy()
        apiClient.configuration.maxRetries = 1

        let socket = try await apiClient.webSocket("/feed")
        var iterator = socket.messages.makeAsyncIterator()

        #expect(try await iterator.next() == .text("open"))
        #expect(server.requestCount == 2)
    }

    @Test("a 401 before the upgrade refreshes the token once and the handshake is sent again with it")
    func tokenRefreshed() async throws {
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 401))
        server.enqueue(.webSocket { peer in try await peer.send(.text("open")) })
        apiClient.configuration.maxRetries = 1
        let refreshes = Recorder<Int>()
        apiClient.interceptors.append(
            TokenAuthenticator(store: .init(token: .init("old"))) { _ in
                refreshes.append(1)
                return TokenAuthenticator.Token("new")
            })

        let socket = try await apiClient.webSocket("/feed")
        var iterator = socket.messages.makeAsyncIterator()

        #expect(try await iterator.next() == .text("open"))
        #expect(refreshes.count == 1)
        let first = try await server.takeRequest(timeout: .seconds(5))
        let second = try await server.takeRequest(timeout: .seconds(5))
        #expect(first.header("Authorization") == "Bearer old")
        #expect(second.header("Authorization") == "Bearer new")
        #expect(first.header("Sec-WebSocket-Key") != second.header("Sec-WebSocket-Key"))
    }

    @Test("a 101 with a wrong Sec-WebSocket-Accept fails with badServerResponse and opens nothing")
    func wrongAccept() async throws {
        defer { server.shutdown() }
        server.enqueue(
            MockResponse(statusCode: 101)
                .withHeader("Upgrade", "websocket")
                .withHeader("Connection", "Upgrade")
                .withHeader("Sec-WebSocket-Accept", "dGhlIHNhbXBsZSBub25jZQ=="))

        let error = await #expect(throws: APIClientError.self) { _ = try await apiClient.webSocket("/feed") }

        guard case .networkError(let failure) = error else {
            Issue.record("expected badServerResponse, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .badServerResponse)
        #expect("\(failure)".contains("Sec-WebSocket-Accept"))
    }
}
