import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("ValidationInterceptor", .timeLimit(.minutes(1)))
struct ValidationInterceptorTests {
    let stub = StubHTTPClient()

    func client(_ validator: ValidationInterceptor, validation: ResponseValidation = .successfulStatusCodes)
        -> BothamAPIClient
    {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com",
            httpClient: stub,
            configuration: .init(validation: validation)
        )
        apiClient.responseInterceptors.append(validator)
        return apiClient
    }

    @Test("An unacceptable status fails with httpResponseError carrying the response")
    func status() async {
        stub.stub(with: .text("teapot", statusCode: 418))
        let result = await client(ValidationInterceptor(acceptableStatusCodes: [200...201])).GET("/")
        guard case .httpResponseError(let response) = result.error else {
            Issue.record("expected httpResponseError, got \(result)")
            return
        }
        #expect(response.statusCode == 418)
    }

    @Test("An unacceptable content type fails with a clear error; wildcards and parameters are understood")
    func contentTypes() async throws {
        let validator = ValidationInterceptor(acceptableContentTypes: ["application/json", "text/*"])
        stub.stub(with: .text("<x/>", headers: [.contentType: "application/xml"]))
        let xml = await client(validator).GET("/")
        guard case .interceptorError(let underlying) = xml.error,
            let error = underlying as? ResponseValidation.UnacceptableContentType
        else {
            Issue.record("expected UnacceptableContentType, got \(xml)")
            return
        }
        #expect(error.contentType == "application/xml")
        #expect(error.response.statusCode == 200)
        #expect("\(error)".contains("application/json, text/*"))

        stub.stub(with: .text("{}", headers: [.contentType: "Application/JSON; charset=utf-8"]))
        #expect(try await client(validator).GET("/").get().statusCode == 200)
        stub.stub(with: .text("hi", headers: [.contentType: "text/csv"]))
        #expect(try await client(validator).GET("/").get().statusCode == 200)
        stub.stub(with: .response(statusCode: 204))
        #expect(try await client(validator).GET("/").get().statusCode == 204)
        stub.stub(with: .response(statusCode: 200, body: Data("x".utf8)))
        let missing = await client(validator).GET("/")
        #expect(missing.error != nil)
    }

    @Test("It composes with the client's validation: both must accept")
    func composes() async throws {
        stub.stub(with: .response(statusCode: 304))
        let validator = ValidationInterceptor(acceptableStatusCodes: [200...299, 304...304])
        let strictClient = await client(validator).GET("/")
        #expect(strictClient.error?.statusCode == 304)
        let relaxed = await client(validator, validation: .acceptAll).GET("/")
        #expect(try relaxed.get().statusCode == 304)
        // And the other way round: what the client accepts, the interceptor can still refuse.
        stub.stub(with: .text("teapot", statusCode: 418))
        let refused = await client(validator, validation: .acceptAll).GET("/")
        #expect(refused.error?.statusCode == 418)
    }

    @Test("A request's own rule replaces the interceptor's, as it replaces the client's: a 304 it accepts gets through")
    func requestRuleWins() async throws {
        stub.stub(with: .response(statusCode: 304))
        let apiClient = client(ValidationInterceptor())
        let plain = await apiClient.GET("/")
        #expect(plain.error?.statusCode == 304)
        let accepting = apiClient.request(.get, "/").accepting(.successfulStatusCodes.adding(304))
        #expect(try await apiClient.send(accepting).get().statusCode == 304)
    }

    @Test("A request's own rule leaves the interceptor's content types in force")
    func requestRuleKeepsContentTypes() async throws {
        stub.stub(with: .text("not json"))
        let apiClient = client(ValidationInterceptor(acceptableContentTypes: ["application/json"]))
        let accepting = apiClient.request(.get, "/").accepting(.successfulStatusCodes.adding(304))
        guard case .failure(.interceptorError(let underlying)) = await apiClient.send(accepting) else {
            Issue.record("expected the content type to be refused")
            return
        }
        #expect(underlying is ResponseValidation.UnacceptableContentType)
    }
}
