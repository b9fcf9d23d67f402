import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Decoding responses", .timeLimit(.minutes(1)))
struct DecodingTests {
    struct Issue: Decodable, Equatable {
        let id: Int
        let title: String
        let createdAt: Date
    }

    @Test("A response decodes with an injected decoder")
    func decodesWithInjectedDecoder() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .json(["id": 1, "title": "Crash", "created_at": 0]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        let issue = try await apiClient.GET("/issues/1").decoded(as: Issue.self, decoder: decoder).get()
        #expect(issue == Issue(id: 1, title: "Crash", createdAt: Date(timeIntervalSince1970: 0)))
    }

    @Test("A parsing failure keeps the body")
    func parsingFailureKeepsBody() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("<html>not json</html>"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let result = await apiClient.GET("/issues/1").decoded(as: Issue.self)
        guard case .failure(.parsingError(let body, _)) = result else {
            Testing.Issue.record("expected parsingError, got \(result)")
            return
        }
        #expect(body == Data("<html>not json</html>".utf8))
    }

    @Test("mapJSON reads the body as JSON values")
    func mapJSON() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .json(["results": [["id": "1"], ["id": "2"]]]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let ids = try await apiClient.GET("/repos").mapJSON { json -> [String] in
            guard case .array(let results)? = json["results"] else { return [] }
            return results.compactMap { result in
                guard case .string(let id)? = result["id"] else { return nil }
                return id
            }
        }.get()
        #expect(ids == ["1", "2"])
    }

    @Test("An HTTP error is passed through decoding unchanged")
    func httpErrorPassesThrough() async {
        let stub = StubHTTPClient()
        stub.stub(with: .text("missing", statusCode: 404))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let result = await apiClient.GET("/issues/1").decoded(as: Issue.self)
        guard case .failure(.httpResponseError(let response)) = result else {
            Testing.Issue.record("expected httpResponseError, got \(result)")
            return
        }
        #expect(response.statusCode == 404)
    }
}
