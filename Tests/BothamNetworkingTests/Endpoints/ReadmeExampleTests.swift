import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// The README's payload examples, compiled and checked.
@Suite("README payload examples", .timeLimit(.minutes(1)))
struct ReadmeExampleTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    @Test("the parameter encoding example gives the documented query")
    func parameterEncoding() async throws {
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

    @Test("the multipart example sends every part")
    func multipart() async throws {
        stub.stub(with: .text("ok"))
        let avatarPNG = Data([0x89, 0x50, 0x4E, 0x47])
        var form = MultipartFormData()
        form.append("Jane", name: "user")
        form.append(avatarPNG, name: "avatar", filename: "avatar.png", contentType: "image/png")
        let result = await apiClient.POST("/profile", body: .multipart(form))
        #expect(result.isSuccess)
        let sent = try #require(stub.receivedRequests.first)
        let parts = try MultipartParser.parse(try #require(try sent.bodyData()), boundary: form.boundary)
        #expect(parts.map(\.content) == [Data("Jane".utf8), avatarPNG])
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
