import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("What StubHTTPClient and RequestMatcher document", .timeLimit(.minutes(1)))
struct StubDocumentedBehaviourTests {
    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub) }

    static func request(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "https://api.example.com/v1", path: path)
    }

    @Test("path matches exactly: never a prefix, case counts, the query is ignored")
    func pathIsExact() {
        let matcher = RequestMatcher.path("/issues")
        #expect(matcher.matches(Self.request("/issues")))
        #expect(matcher.matches(Self.request("/issues?state=open")))
        #expect(matcher.matches(Self.request("/issues").appendingParameters(["state": "open"])))
        #expect(!matcher.matches(Self.request("/issues/1")))
        #expect(!matcher.matches(Self.request("/Issues")))
        #expect(!matcher.matches(Self.request("/issues/")))
        #expect(RequestMatcher.path("/v1/issues").matches(Self.request("/issues")))
        #expect(!RequestMatcher.path("/v1/issues/").matches(Self.request("/issues")))
    }

    @Test("path compares the request's own path as written, and the URL's path percent-decoded")
    func pathEncoding() {
        let request = Self.request("/files/a%20b")
        #expect(RequestMatcher.path("/files/a%20b").matches(request))  // the path as written
        #expect(RequestMatcher.path("/v1/files/a b").matches(request))  // the URL's path, decoded
        #expect(!RequestMatcher.path("/v1/files/a%20b").matches(request))
    }

    @Test("each send takes the next answer, so a retried call walks a stub's sequence")
    func retriesConsumeAnswers() async throws {
        stub.stub(with: .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(
                maxRetries: 2, retrier: RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .zero, maxDelay: .zero))))
        #expect(try await apiClient.GET("/x").get().body == Data("ok".utf8))
        #expect(stub.receivedRequests.count == 3)
        #expect(try await apiClient.GET("/x").get().body == Data("ok".utf8))  // the last answer repeats
    }
}
