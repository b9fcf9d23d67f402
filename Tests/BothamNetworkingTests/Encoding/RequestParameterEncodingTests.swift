import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Encoded parameters reach the transport in the query or the body", .timeLimit(.minutes(1)))
struct RequestParameterEncodingTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub) }

    @Test("GET parameters go in the query after the path's own query")
    func getInQuery() async throws {
        stub.stub(with: .text("ok"))
        let request = try apiClient.request(
            .get,
            "/search?lang=en",
            parameters: ["q": "swift testing", "tags": ["a", "b"]],
            encoding: .default
        )
        _ = try await apiClient.response(for: request)
        let sent = try #require(stub.receivedRequests.first)
        #expect(
            sent.url?.absoluteString
                == "https://api.example.com/v1/search?lang=en&q=swift%20testing&tags%5B%5D=a&tags%5B%5D=b"
        )
        #expect(sent.body == nil)
    }

    @Test("POST parameters become a form body with the form content type")
    func postInBody() async throws {
        stub.stub(with: .text("ok"))
        let request = try apiClient.request(
            .post, "/login", parameters: ["user": "jane", "remember": true], encoding: .default)
        _ = try await apiClient.response(for: request)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.url?.absoluteString == "https://api.example.com/v1/login")
        #expect(sent.headers[.contentType] == "application/x-www-form-urlencoded")
        #expect(try sent.bodyData() == Data("remember=1&user=jane".utf8))
    }

    @Test("a Content-Type the user set is kept for a form body")
    func userContentType() async throws {
        stub.stub(with: .text("ok"))
        let request = try apiClient.request(
            .put,
            "/form",
            parameters: ["a": "b"],
            encoding: .httpBody,
            headers: [.contentType: "application/x-www-form-urlencoded; charset=utf-8"]
        )
        _ = try await apiClient.response(for: request)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(try sent.bodyData() == Data("a=b".utf8))
    }

    @Test("queryString puts POST parameters in the URL and httpBody puts GET parameters in the body")
    func fixedDestinations() throws {
        let post = try apiClient.request(.post, "/x", parameters: ["a": 1], encoding: .queryString)
        #expect(post.url?.query == "a=1")
        #expect(post.body == nil)
        let get = try apiClient.request(.get, "/x", parameters: ["a": 1], encoding: .httpBody)
        #expect(get.url?.query == nil)
        #expect(try get.bodyData() == Data("a=1".utf8))
    }

    @Test("Nested, array and boolean parameters follow the default convention, or a legacy one, in a query or a form")
    func defaultAndLegacyConventions() async throws {
        stub.stub(with: .text("ok"))
        let request = try apiClient.request(
            .get,
            "/search",
            parameters: ["q": "swift", "tags": ["a", "b"], "page": ["size": 50], "draft": false],
            encoding: .default
        )
        _ = await apiClient.send(request)
        #expect(request.url?.query == "draft=0&page%5Bsize%5D=50&q=swift&tags%5B%5D=a&tags%5B%5D=b")

        let legacy = ParameterEncoding(arrayEncoding: .noBrackets, boolEncoding: .literal, keyOrder: .asWritten)
        let old = try apiClient.request(
            .get, "/search", parameters: ["tags": ["a", "b"], "draft": false], encoding: legacy)
        #expect(old.url?.query == "tags=a&tags=b&draft=false")

        let login = try apiClient.request(
            .post, "/login", parameters: ["user": "jane", "remember": true], encoding: .default)
        #expect(try login.bodyData() == Data("remember=1&user=jane".utf8))
    }

    @Test("Encodable parameters use the encoder given")
    func encodable() throws {
        struct Page: Encodable { var perPage: Int }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let request = try apiClient.request(
            .get, "/x", parameters: Page(perPage: 50), encoding: .default, encoder: encoder)
        #expect(request.url?.query == "per_page=50")
    }
}
