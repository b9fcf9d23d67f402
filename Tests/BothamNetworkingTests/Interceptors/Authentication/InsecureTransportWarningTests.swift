import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Basic credentials over plain http", .timeLimit(.minutes(1)))
struct InsecureTransportWarningTests {
    struct Credentials: BasicAuthentication {
        let credentials = BasicAuthCredentials(username: "user", password: "s3cr3t")
        let lines: Recorder<String>
        var insecureTransportLog: LoggingInterceptor.Sink {
            LoggingInterceptor.Sink { _, message in lines.append(message) }
        }
        func onAuthenticationError(realm: String) {}
    }

    private func send(to endpoint: String, times: Int = 1) async -> [String] {
        let lines = Recorder<String>()
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)
        apiClient.requestInterceptors.append(Credentials(lines: lines))
        for _ in 0..<times { _ = await apiClient.GET("/x") }
        return lines.values
    }

    @Test("Basic credentials to a remote host over plain http log one warning per host, without the secret")
    func warnsOncePerHost() async {
        let host = "\(UUID().uuidString.lowercased()).example"
        let lines = await send(to: "http://\(host)", times: 3)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(host) == true)
        #expect(lines.allSatisfy { !$0.contains("s3cr3t") && !$0.contains("dXNlcjpzM2NyM3Q") })
    }

    @Test(
        "No warning over https or to the loopback interface",
        arguments: ["https://api.example.com", "http://127.0.0.1:8080", "http://localhost", "http://[::1]:9000"]
    )
    func noWarning(endpoint: String) async {
        #expect(await send(to: endpoint).isEmpty)
    }
}
