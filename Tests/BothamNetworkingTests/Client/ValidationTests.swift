import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Response validation", .timeLimit(.minutes(1)))
struct ValidationTests {
    let stub = StubHTTPClient()

    @Test("4xx and 5xx become httpResponseError with status, headers and body", arguments: [400, 401, 404, 500, 503])
    func errorStatusesFail(statusCode: Int) async throws {
        stub.stub(with: .text("nope", statusCode: statusCode, headers: ["X-Reason": "r"]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let result = await apiClient.GET("/x")
        guard case .failure(.httpResponseError(let response)) = result else {
            Issue.record("expected httpResponseError, got \(result)")
            return
        }
        #expect(response.statusCode == statusCode)
        #expect(response.body == Data("nope".utf8))
        #expect(response.headers["x-reason"] == "r")
    }

    @Test("2xx and 3xx-free success codes pass validation", arguments: [200, 201, 204, 299])
    func successStatusesPass(statusCode: Int) async throws {
        stub.stub(with: .response(statusCode: statusCode))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        #expect(try await apiClient.GET("/x").get().statusCode == statusCode)
    }

    @Test("Validation is configurable per client")
    func validationIsConfigurable() async throws {
        stub.stub(with: .response(statusCode: 404))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example",
            httpClient: stub,
            configuration: .init(validation: .acceptAll)
        )
        #expect(try await apiClient.GET("/x").get().statusCode == 404)
        apiClient.configuration.validation = .statusCodes(200..<300)
        guard case .failure(.httpResponseError) = await apiClient.GET("/x") else {
            Issue.record("expected httpResponseError after changing validation")
            return
        }
    }

    @Test("Validation runs after the response interceptors, which still see the error status")
    func validationAfterInterceptors() async {
        stub.stub(with: .response(statusCode: 500))
        let log = Recorder<String>()
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "local", log: log, host: nil))
        let result = await apiClient.GET("/x")
        #expect(log.values == ["response:local"])
        #expect(result.statusCodeOfFailure == 500)
    }

    @Test("The client's validation can hold the whole rule: wider statuses and acceptable content types, in one place")
    func oneRuleInTheConfiguration() async throws {
        let rule = ResponseValidation.statusCodes(200...304).acceptingContentTypes(["application/json"])
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example", httpClient: stub, configuration: .init(validation: rule))
        stub.stub(with: .response(statusCode: 304))
        #expect(try await apiClient.GET("/x").get().statusCode == 304)
        stub.stub(with: .text("{}", headers: [.contentType: "application/json; charset=utf-8"]))
        #expect(try await apiClient.GET("/x").get().statusCode == 200)
        stub.stub(with: .text("<x/>", headers: [.contentType: "application/xml"]))
        let xml = await apiClient.GET("/x")
        guard case .failure(.interceptorError(let underlying)) = xml,
            let error = underlying as? ResponseValidation.UnacceptableContentType
        else {
            Issue.record("expected UnacceptableContentType, got \(xml)")
            return
        }
        #expect(error.contentType == "application/xml")
        stub.stub(with: .text("gone", statusCode: 410, headers: [.contentType: "application/json"]))
        #expect(await apiClient.GET("/x").statusCodeOfFailure == 410)
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    var statusCodeOfFailure: Int? {
        guard case .failure(let error) = self else { return nil }
        return error.statusCode
    }
}
