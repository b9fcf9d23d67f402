import BothamNetworking
import BothamNetworkingNative
import Foundation
import Testing

@Suite("README examples for NativeHTTPClient compile and configure", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    @Test("The README's configuration example builds a working client")
    func configuration() async throws {
        let server = try LoopbackServer { _ in .response(status: 200, body: Data("{}".utf8)) }
        defer { server.stop() }

        var configuration = NativeHTTPClient.Configuration()
        configuration.limits.idleTimeout = .milliseconds(800)  // 0.8 s without a byte ends the attempt
        configuration.limits.maxAttemptTimeout = .seconds(5)  // the whole attempt, redirects included, at most
        configuration.limits.maxResponseBytes = 2 << 20  // bigger bodies fail with .responseTooLarge
        configuration.redirectPolicy = .followAtMost(5)
        configuration.tls.trustRoots = .system
        configuration.tls.pinnedPublicKeys = ["api.example.com": ["sha256/" + Data(count: 32).base64EncodedString()]]
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL,
            httpClient: NativeHTTPClient(configuration: configuration)
        )
        let result = await apiClient.send(HTTPRequest(method: .get, baseEndpoint: server.baseURL, path: "/users/1"))
        #expect(try result.get().statusCode == 200)
    }
}
