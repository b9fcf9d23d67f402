import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Credentials go only to the base endpoint's origin unless another is named", .timeLimit(.minutes(1)))
struct CredentialScopeTests {
    final class Basic: BasicAuthentication {
        let credentials = BasicAuthCredentials(username: "user", password: "pass")
        let credentialScope: CredentialScope
        init(scope: CredentialScope = .baseEndpointOrigin) { credentialScope = scope }
        func onAuthenticationError(realm: String) {}
    }

    static func client(_ stubClient: StubHTTPClient) -> BothamAPIClient {
        stubClient.stub(with: .text("ok"))
        return BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stubClient)
    }

    @Test(
        "Basic credentials reach the own origin, not an absolute URL to another host, scheme or port",
        arguments: [
            ("/users", true), ("https://api.example.com/next?page=2", true), ("https://API.example.com:443/x", true),
            ("https://cdn.example.net/file", false), ("http://api.example.com/x", false),
            ("https://api.example.com:8443/x", false),
        ])
    func basicScope(path: String, attached: Bool) async throws {
        let stubClient = StubHTTPClient()
        let apiClient = Self.client(stubClient)
        apiClient.requestInterceptors.append(Basic())

        _ = try await apiClient.GET(path).get()

        #expect((stubClient.receivedRequests.first?.headers[.authorization] != nil) == attached)
    }

    @Test("an origin named in the scope receives the credentials")
    func allowList() async throws {
        let stubClient = StubHTTPClient()
        let apiClient = Self.client(stubClient)
        apiClient.requestInterceptors.append(
            Basic(scope: CredentialScope(additionalOrigins: ["https://uploads.example.com"])))

        _ = try await apiClient.GET("https://uploads.example.com/part/1").get()
        _ = try await apiClient.GET("https://evil.example.com/").get()

        #expect(stubClient.receivedRequests[0].headers[.authorization] != nil)
        #expect(stubClient.receivedRequests[1].headers[.authorization] == nil)
    }

    @Test("the token authenticator does not send its token to another host")
    func tokenScope() async throws {
        let stubClient = StubHTTPClient()
        let apiClient = Self.client(stubClient)
        let authenticator = TokenAuthenticator(store: .init(token: .init("t0k3n"))) { _ in
            TokenAuthenticator.Token("new")
        }
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        _ = try await apiClient.GET("/me").get()
        _ = try await apiClient.GET("https://files.example.org/presigned?sig=1").get()

        #expect(stubClient.receivedRequests[0].headers[.authorization] == "Bearer t0k3n")
        #expect(stubClient.receivedRequests[1].headers[.authorization] == nil)
    }
}
