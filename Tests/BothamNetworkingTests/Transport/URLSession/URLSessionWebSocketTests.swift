import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("URLSessionHTTPClient and WebSockets", .timeLimit(.minutes(1)))
struct URLSessionWebSocketTests {
    #if !canImport(Darwin)
        @Test("on Linux a WebSocket fails before anything is sent, with a typed error naming NativeHTTPClient")
        func linuxRefusesBeforeSending() async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDispatcher { _ in MockResponse(statusCode: 200, body: Data("ok".utf8)) }
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: URLSessionHTTPClient())
            await #expect {
                _ = try await apiClient.webSocket("/chat", protocols: ["chat.v1"])
            } throws: { error in
                guard case .invalidRequest(let reason)? = error as? APIClientError else { return false }
                return reason.contains("NativeHTTPClient") && reason.contains("libcurl")
            }
            // The server works, and the plain request after it is the first it received.
            _ = try await apiClient.GET("/plain").get()
            #expect(server.requestCount == 1)
            #expect(try await server.takeRequest(timeout: .seconds(5)).path == "/plain")
        }
    #endif
}
