import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("README examples for NativeHTTPClient compile and configure", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    @Test("The README's configuration example builds a working client")
    func configuration() async throws {
        let server = try makeServer { _ in MockResponse(body: Data("{}".utf8)) }
        defer { server.shutdown() }

        var configuration = NativeHTTPClient.Configuration()
        configuration.requestTimeout = .milliseconds(800)  // idle timeout per attempt; sub-second works
        configuration.totalTimeout = .seconds(5)  // the whole call, redirects included
        configuration.maxResponseBytes = 2 << 20  // bigger bodies fail with .responseTooLarge
        configuration.redirectPolicy = .followAtMost(5)
        configuration.tls.trustRoots = .system
        configuration.tls.pinnedPublicKeys = ["api.example.com": ["sha256/" + Data(count: 32).base64EncodedString()]]
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: NativeHTTPClient(configuration: configuration)
        )
        let result = await apiClient.send(
            HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/users/1"))
        #expect(try result.get().statusCode == 200)
    }
}
