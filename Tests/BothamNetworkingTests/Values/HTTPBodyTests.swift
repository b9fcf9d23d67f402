import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Request bodies", .timeLimit(.minutes(1)))
struct HTTPBodyTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    init() {
        stub.stub(with: .text("ok"))
    }

    private func sent() throws -> HTTPRequest {
        try #require(stub.receivedRequests.last)
    }

    @Test("A dictionary body is sent as JSON in the order it was written, with Content-Type set")
    func dictionaryBodyIsJSON() async throws {
        _ = await apiClient.POST("/authorizations", body: ["scopes": ["repo_status", "user:email"], "id": 3])
        let request = try sent()
        #expect(request.bodyText == #"{"scopes":["repo_status","user:email"],"id":3}"#)
        #expect(request.headers[.contentType] == "application/json")
    }

    @Test(
        "A dictionary body is form-encoded when Content-Type says so, ignoring case and parameters",
        arguments: [
            "application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded",
            "application/x-www-form-urlencoded; charset=utf-8",
        ]
    )
    func dictionaryBodyFollowsFormContentType(contentType: String) async throws {
        _ = await apiClient.POST(
            "/login",
            headers: ["Content-Type": contentType],
            body: ["user": "jane doe", "tags": ["a", "b"], "admin": false]
        )
        let request = try sent()
        #expect(request.bodyText == "user=jane%20doe&tags=a&tags=b&admin=false")
        #expect(request.headers[.contentType] == contentType)
    }

    @Test("A JSON content type with parameters keeps the JSON encoding and the user's header")
    func jsonContentTypeWithParameters() async throws {
        _ = await apiClient.POST("/x", headers: ["content-type": "application/json; charset=utf-8"], body: ["a": 1])
        let request = try sent()
        #expect(request.bodyText == #"{"a":1}"#)
        #expect(request.headers.values(for: .contentType) == ["application/json; charset=utf-8"])
    }

    @Test("A dictionary body with a content type that cannot express it is an error and nothing is sent")
    func dictionaryBodyWithUnknownContentTypeFails() async {
        let result = await apiClient.POST("/x", headers: ["Content-Type": "text/xml"], body: ["a": 1])
        guard case .failure(.invalidRequest(let reason)) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(reason.contains("text/xml"))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("NaN in a JSON body is an error and nothing is sent")
    func nanIsRejected() async {
        let result = await apiClient.POST("/x", body: ["value": .double(.nan)])
        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    struct Todo: Codable, Equatable {
        let title: String
        let completed: Bool
    }

    @Test("An Encodable body is sent as JSON")
    func encodableBody() async throws {
        _ = await apiClient.POST("/todos", body: .json(Todo(title: "Ship", completed: false)))
        let request = try sent()
        let data = try #require(try request.bodyData())
        #expect(try JSONDecoder().decode(Todo.self, from: data) == Todo(title: "Ship", completed: false))
        #expect(request.headers[.contentType] == "application/json")
    }

    struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                0,
                .init(codingPath: [], debugDescription: "this value refuses to be encoded")
            )
        }
    }

    @Test("An Encodable that fails to encode is an error and nothing is sent")
    func failingEncodableIsRejected() async {
        let result = await apiClient.POST("/x", body: .json(Unencodable()))
        guard case .failure(.invalidRequest(let reason)) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(reason.contains("Unencodable"))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("Raw data keeps its bytes and its content type")
    func rawData() async throws {
        let bytes = Data([0x00, 0xFF, 0x10, 0x80])
        _ = await apiClient.PUT("/blob", body: .data(bytes, contentType: "application/octet-stream"))
        let request = try sent()
        #expect(try request.bodyData() == bytes)
        #expect(request.headers[.contentType] == "application/octet-stream")
    }

    @Test("A form body is sent url-encoded")
    func formBody() async throws {
        _ = await apiClient.POST("/login", body: .form(["user": "a&b", "password": "p=q"]))
        let request = try sent()
        #expect(request.bodyText == "user=a%26b&password=p%3Dq")
        #expect(request.headers[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test("A content type the user set is never replaced")
    func userContentTypeWins() async throws {
        _ = await apiClient.POST("/x", headers: ["Content-Type": "application/vnd.api+json"], body: .json(["a": 1]))
        #expect(try sent().headers[.contentType] == "application/vnd.api+json")
    }

    @Test("Debug descriptions of binary bodies never crash and show size and hex")
    func binaryDescriptions() {
        var generator = SplitMix64(seed: 0xB0D1_0001)
        for _ in 0..<200 {
            // A leading 0xFF is never UTF-8, so every body is binary.
            let count = Int.random(in: 0..<300, using: &generator)
            let bytes = Data([0xFF] + (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let request = HTTPRequest(method: .post, baseEndpoint: "https://h.example", body: .data(bytes))
            let hex = bytes.prefix(32).map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            let expected = "(\(bytes.count) bytes of binary data: \(hex.joined(separator: " "))"
            #expect(request.debugDescription.contains(expected + (bytes.count > 32 ? " …)" : ")")), "\(Array(bytes))")
        }
        let binary = HTTPRequest(
            method: .post, baseEndpoint: "https://h.example", body: .data(Data([0xFF, 0xFE, 0x00])))
        #expect(binary.debugDescription.contains("3 bytes of binary data: ff fe 00"))
    }
}
