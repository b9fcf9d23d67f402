import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// A ``MockWebServer`` answering every request with `answer(request)`.
func makeServer(_ answer: @escaping @Sendable (RecordedRequest) -> MockResponse) throws -> MockWebServer {
    let server = try MockWebServer()
    server.setDispatcher(answer)
    return server
}

extension MockResponse {
    /// `wire` sent exactly as it is in place of a response, then the connection closed when `close` is set or kept
    /// for the next request.
    static func raw(_ wire: String, close: Bool) -> MockResponse {
        raw(Data(wire.utf8), close: close)
    }

    /// `bytes` sent exactly as they are in place of a response, then the connection closed when `close` is set or
    /// kept for the next request.
    static func raw(_ bytes: Data, close: Bool) -> MockResponse {
        let response = MockResponse().withSocketPolicy(.raw(bytes))
        return close ? response.closingConnection() : response
    }

    /// No answer: the connection stays open, silent, until the server shuts down.
    static let hang = MockResponse().withSocketPolicy(.noResponse)

    /// The connection closed without an answer.
    static let close = MockResponse().withSocketPolicy(.disconnectAtStart)
}

extension MockWebServer {
    /// Every request the server has recorded, in arrival order. It takes them: call it once, after the calls.
    func takeRecordedRequests() async throws -> [RecordedRequest] {
        var requests: [RecordedRequest] = []
        for _ in 0..<requestCount {
            requests.append(try await takeRequest(timeout: .seconds(1)))
        }
        return requests
    }
}
