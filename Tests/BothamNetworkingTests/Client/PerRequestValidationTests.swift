import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("A request or an endpoint says which statuses it accepts", .timeLimit(.minutes(1)))
struct PerRequestValidationTests {
    struct Manifest: Decodable, Sendable, Equatable {
        let tag: String
    }

    let stub = StubHTTPClient()

    @Test("by default a 304 is an httpResponseError, as the client's validation says")
    func notModifiedFailsByDefault() async {
        stub.stub(with: .response(statusCode: 304))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        guard case .failure(.httpResponseError(let response)) = await apiClient.GET("/m") else {
            Issue.record("expected httpResponseError")
            return
        }
        #expect(response.statusCode == 304)
    }

    @Test("a request accepting 2xx and 304 gets the 304 as a response, and still fails on other statuses")
    func requestAcceptsNotModified() async throws {
        stub.stub(.header("If-None-Match"), with: .response(statusCode: 304, headers: ["ETag": #""v1""#]))
        stub.stub(.path("/missing"), with: .response(statusCode: 404))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let request = apiClient.request(.get, "/m", headers: ["If-None-Match": #""v1""#])
            .accepting(.successfulStatusCodes.adding(304))
        #expect(request.validation != nil)
        #expect(try await apiClient.response(for: request).statusCode == 304)

        let missing = apiClient.request(.get, "/missing").accepting(.successfulStatusCodes.adding(304))
        guard case .failure(.httpResponseError) = await apiClient.send(missing) else {
            Issue.record("expected httpResponseError for 404")
            return
        }
    }

    @Test("the request's rule replaces the client's, whichever is wider")
    func requestRuleReplacesTheClients() async throws {
        stub.stub(with: .response(statusCode: 200))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example", httpClient: stub, configuration: .init(validation: .acceptAll))
        let strict = apiClient.request(.get, "/x").accepting(.statusCodes(201...201))
        guard case .failure(.httpResponseError) = await apiClient.send(strict) else {
            Issue.record("expected the request's stricter rule to reject 200")
            return
        }
        #expect(try await apiClient.send(strict.accepting(nil)).get().statusCode == 200)
    }

    @Test("an endpoint accepting 304 decodes an empty 304 as nil and a 200 as its value")
    func endpointDecodesNotModifiedAsNil() async throws {
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let endpoint = Endpoint<Manifest?>(.get, "/m", headers: ["If-None-Match": #""v1""#])
            .accepting(.successfulStatusCodes.adding(304))
        stub.stub(with: .response(statusCode: 304))
        #expect(try await apiClient.value(for: endpoint) == nil)
        stub.removeAllStubs()
        stub.stub(with: .json(["tag": "v2"]))
        #expect(try await apiClient.value(for: endpoint) == Manifest(tag: "v2"))
        let empty = Endpoint<Empty>(.get, "/m").accepting(.successfulStatusCodes.adding(304))
        stub.removeAllStubs()
        stub.stub(with: .response(statusCode: 304))
        #expect(try await apiClient.value(for: empty) == Empty())
    }

    @Test("the Result and response decoding helpers decode an accepted empty 304 as nil or Empty")
    func decodingHelpersDecodeNotModified() async throws {
        stub.stub(with: .response(statusCode: 304))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let request = apiClient.request(.get, "/m").accepting(.successfulStatusCodes.adding(304))
        #expect(try await apiClient.send(request).decoded(as: Manifest?.self).get() == nil)
        #expect(try await apiClient.response(for: request).decoded(as: Empty.self) == Empty())
    }

    @Test("adding statuses widens a content-type rule for those statuses only")
    func addingWidensOnlyThoseStatuses() {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://h.example")
        let rule = ResponseValidation.successfulStatusCodes.acceptingContentTypes(["application/json"]).adding(304)
        #expect(rule.accepts(HTTPResponse(statusCode: 304, body: Data("x".utf8), request: request)))
        #expect(
            !rule.accepts(
                HTTPResponse(
                    statusCode: 200, headers: [.contentType: "text/plain"], body: Data("x".utf8), request: request)))
        #expect(!rule.accepts(HTTPResponse(statusCode: 404, request: request)))
    }
}
