import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@testable import BothamNetworkingNative

/// Cleartext HTTP/2 with prior knowledge against servers that do not answer in HTTP/2: what the caller sees is
/// the empty or foreign reply it is, never a hang or a retry.
@Suite("NativeHTTPClient with http2PriorKnowledge against a server that does not speak HTTP/2", .timeLimit(.minutes(1)))
struct NativeHTTP2PriorKnowledgeTests {
    private static func send(to server: MockWebServer) async -> APIClientError? {
        let client = makeClient { $0.httpVersion = .http2PriorKnowledge }
        let request = HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/")
        return await failure(of: request, with: client)
    }

    @Test("an HTTP/1.1-only server's answer to the preface fails the call with badServerResponse")
    func http1OnlyServer() async throws {
        var configuration = MockWebServer.Configuration()
        configuration.servesHTTP2PriorKnowledge = false
        let server = try MockWebServer(configuration: configuration)
        defer { server.shutdown() }

        let error = await Self.send(to: server)

        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .badServerResponse)
    }

    @Test("a server that closes before its HTTP/2 preface is an empty reply: badServerResponse, sent once")
    func closedBeforeThePreface() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.disconnectAtStart))

        let error = await Self.send(to: server)

        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .badServerResponse)
        #expect(String(describing: failure.underlying).contains("before its HTTP/2 preface"))
        #expect(server.requestCount == 1)
    }
}
