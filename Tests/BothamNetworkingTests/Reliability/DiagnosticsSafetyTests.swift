import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// What SECURITY.md promises about error descriptions: no request headers, escaped control characters.
@Suite("Diagnostics safety", .timeLimit(.minutes(1)))
struct DiagnosticsSafetyTests {
    @Test("an HTTP error's description never shows the request's credentials")
    func errorDescriptionHasNoRequestHeaders() async {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("denied", statusCode: 403))
        let apiClient = BothamAPIClient(baseEndpoint: uniqueEndpoint(), httpClient: stubClient)
        let request = apiClient.request(
            .get, "/me", headers: [.authorization: "Bearer s3cr3t-t0k3n", .cookie: "session=c00k1e"])

        let result = await apiClient.send(request)

        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.description.contains("403"))
        #expect(!error.description.contains("s3cr3t-t0k3n"))
        #expect(!error.description.contains("c00k1e"))
    }

    @Test("an error body with CR/LF cannot forge extra lines in an error description")
    func errorDescriptionEscapesControlCharacters() async {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("oops\r\nINFO forged log line\u{0}", statusCode: 500))
        let apiClient = BothamAPIClient(baseEndpoint: uniqueEndpoint(), httpClient: stubClient)

        let result = await apiClient.send(apiClient.request(.get, "/boom"))

        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
        #expect(error.description.contains(#"oops\r\nINFO forged log line\0"#))
    }
}
