import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The README's shape: a final class with credentials and a synchronous callback.
final class GitHubBasicAuthentication: BasicAuthentication {
    let credentials = BasicAuthCredentials(username: "user", password: "pass")
    let realms = Recorder<String>()

    func onAuthenticationError(realm: String) {
        realms.append(realm)
    }
}

/// A struct conformance with an async callback.
struct StructBasicAuthentication: BasicAuthentication {
    let credentials: BasicAuthCredentials
    let realms = Recorder<String>()

    func onAuthenticationError(realm: String) async {
        realms.append(realm)
    }
}

@Suite("BasicAuthentication", .timeLimit(.minutes(1)))
struct BasicAuthenticationTests {
    let stub = StubHTTPClient()

    @Test("The header is Basic base64(user:password) of the UTF-8 bytes (RFC 7617 examples)")
    func headerBytes() throws {
        #expect(
            BasicAuthCredentials(username: "Aladdin", password: "open sesame").authorizationHeaderValue
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
        )
        #expect(
            BasicAuthCredentials(username: "test", password: "123\u{A3}").authorizationHeaderValue
                == "Basic dGVzdDoxMjPCow=="
        )
        let header = BasicAuthCredentials(username: "jösé", password: "pä:ss🔑").authorizationHeaderValue
        let decoded = try #require(Data(base64Encoded: String(header.dropFirst("Basic ".count))))
        #expect(Array(decoded) == Array("jösé:pä:ss🔑".utf8))
    }

    @Test("Registered as Botham's README shows, it authenticates requests and reports the realm of a 401")
    func readmeUsage() async throws {
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com", httpClient: stub)
        let basicAuth = GitHubBasicAuthentication()
        apiClient.requestInterceptors.append(basicAuth)
        apiClient.responseInterceptors.append(basicAuth)
        stub.stub(with: .response(statusCode: 401, headers: [.wwwAuthenticate: #"Basic realm="GitHub""#]))

        let result = await apiClient.GET("/user")

        #expect(result.statusCode == 401)
        #expect(basicAuth.realms.values == ["GitHub"])
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.authorization] == "Basic dXNlcjpwYXNz")
    }

    @Test("A 401 without a Basic challenge, or a success, does not call onAuthenticationError")
    func onlyBasicChallenges() async {
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com", httpClient: stub)
        let basicAuth = StructBasicAuthentication(credentials: BasicAuthCredentials(username: "u", password: "p"))
        apiClient.requestInterceptors.append(basicAuth)
        apiClient.responseInterceptors.append(basicAuth)
        stub.stub(
            with: .response(statusCode: 401, headers: [.wwwAuthenticate: #"Bearer realm="api""#]),
            .response(statusCode: 401),
            .text("ok"),
            .response(statusCode: 401, headers: [.wwwAuthenticate: "Basic"])
        )
        for _ in 0..<4 { _ = await apiClient.GET("/user") }
        #expect(basicAuth.realms.values == [""])
    }

    @Test("Credentials never print their password")
    func credentialsDescription() {
        let credentials = BasicAuthCredentials(username: "jane", password: "hunter2")
        #expect(!"\(credentials)".contains("hunter2"))
        #expect(!String(reflecting: credentials).contains("hunter2"))
    }
}
