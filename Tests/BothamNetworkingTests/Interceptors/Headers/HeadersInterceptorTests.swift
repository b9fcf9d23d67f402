import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Header interceptors", .timeLimit(.minutes(1)))
struct HeadersInterceptorTests {
    let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")

    @Test("JSON headers are added when missing and never replace the request's own")
    func jsonHeaders() async throws {
        let added = try await BothamNetworking.JSONHeadersRequestInterceptor().intercept(request: request)
        #expect(added.headers[.contentType] == "application/json")
        #expect(added.headers[.accept] == "application/json")
        let own = try await BothamNetworking.JSONHeadersRequestInterceptor().intercept(
            request: request.withHeader(.contentType, "image/png")
        )
        #expect(own.headers[.contentType] == "image/png")
        let form = try await BothamNetworking.JSONHeadersRequestInterceptor().intercept(
            request: request.withBody(.form(["a": "b"])))
        #expect(form.headers[.contentType] == nil)
        #expect(form.headers[.accept] == "application/json")
        let dictionary = try await BothamNetworking.JSONHeadersRequestInterceptor().intercept(
            request: request.withBody(["a": 1]))
        #expect(dictionary.headers[.contentType] == "application/json")
    }

    @Test("Accept-Language lists the preferred languages with falling q-values")
    func acceptLanguage() {
        #expect(DefaultHeadersInterceptor.acceptLanguage(["en-GB", "en", "es"]) == "en-GB, en;q=0.9, es;q=0.8")
        #expect(DefaultHeadersInterceptor.acceptLanguage([]) == nil)
        let many = DefaultHeadersInterceptor.acceptLanguage(["a", "b", "c", "d", "e", "f", "g", "h"])
        #expect(many == "a, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6, f;q=0.5")
    }

    @Test("Default headers name the library and OS, and never override the user's headers")
    func defaultHeaders() async throws {
        let interceptor = DefaultHeadersInterceptor(preferredLanguages: ["es-ES", "en"])
        let sent = try await interceptor.intercept(request: request.withHeader(.acceptEncoding, "br"))
        let userAgent = try #require(sent.headers[.userAgent])
        #expect(userAgent.contains("BothamNetworking/\(DefaultHeadersInterceptor.libraryVersion) ("))
        #if os(Linux)
            #expect(userAgent.contains("(Linux "))
        #endif
        #expect(sent.headers[.acceptLanguage] == "es-ES, en;q=0.9")
        #expect(sent.headers[.acceptEncoding] == "br")
        #expect(sent.headers.validationFailure == nil)

        let own = try await interceptor.intercept(request: request.withHeader(.userAgent, "MyApp/1"))
        #expect(own.headers[.userAgent] == "MyApp/1")
    }

    @Test("Default headers reach the transport through a client")
    func throughClient() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.requestInterceptors.append(DefaultHeadersInterceptor())
        _ = try await apiClient.GET("/").get()
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.acceptEncoding] == "gzip, deflate")
        #expect(sent.headers.contains(.userAgent))
    }
}
