import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Bodies and parameters that cannot be encoded are never sent", .timeLimit(.minutes(1)))
struct EncodingFailureTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    private func expectInvalidRequest<Value>(_ result: Result<Value, APIClientError>) {
        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
    }

    @Test("NaN in a JSON body")
    func nanJSON() async {
        stub.stub(with: .text("ok"))
        expectInvalidRequest(await apiClient.POST("/x", body: .json(["x": .double(.nan)])))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("NaN in an Encodable JSON body")
    func nanEncodable() async {
        stub.stub(with: .text("ok"))
        expectInvalidRequest(await apiClient.POST("/x", body: .json([Double.infinity])))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("NaN in endpoint parameters, in the query and in the body")
    func nanParameters() async {
        stub.stub(with: .text("ok"))
        expectInvalidRequest(
            await apiClient.send(Endpoint<String>(.get, "/x", parameters: ["x": .double(.nan)], decoding: .string())))
        expectInvalidRequest(
            await apiClient.send(Endpoint<String>(.post, "/x", parameters: ["x": .double(.nan)], decoding: .string())))
        expectInvalidRequest(
            await apiClient.send(
                Endpoint<String>(.get, "/x", parameters: ["not", "a", "dictionary"], decoding: .string())))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("an endpoint with a body and body parameters")
    func bodyAndParameters() async {
        stub.stub(with: .text("ok"))
        expectInvalidRequest(
            await apiClient.send(
                Endpoint<String>(.post, "/x", parameters: ["a": 1], body: .text("b"), decoding: .string())))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("a multipart part with control characters in its content type")
    func multipartContentType() async {
        stub.stub(with: .text("ok"))
        var form = MultipartFormData()
        form.append(Data([1]), name: "f", filename: "f.bin", contentType: "image/png\r\nX-Evil: 1")
        expectInvalidRequest(await apiClient.POST("/x", body: .multipart(form)))
        #expect(stub.receivedRequests.isEmpty)
    }
}
