import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite(
    "Request bodies streamed from async sequences are sent once unless they can be made again", .timeLimit(.minutes(1)))
struct StreamedRequestBodyTests {
    struct RetryOn503: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
            response.statusCode == 503 ? .retry : .proceed(response)
        }
    }

    static func rows() -> AsyncStream<Data> {
        AsyncStream { continuation in
            continuation.yield(Data("row\n".utf8))
            continuation.finish()
        }
    }

    static func client(_ stubClient: StubHTTPClient, retrier: (any RequestRetrier)? = nil) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stubClient,
            configuration: .init(maxRetries: 3, retrier: retrier, clock: VirtualClock(sleeping: .advancesClock)))
    }

    @Test("a response interceptor's .retry does not resend a one-shot streamed body")
    func retryInterceptorDoesNotResend() async {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("busy", statusCode: 503), .text("ok"))
        let apiClient = Self.client(stubClient)
        apiClient.responseInterceptors.append(RetryOn503())

        let result = await apiClient.POST("/ingest", body: .stream(Self.rows()))

        #expect(stubClient.receivedRequests.count == 1)
        #expect(result.error?.statusCode == 503)
    }

    @Test("the retry policy does not resend a one-shot streamed body, even for an idempotent method")
    func retryPolicyDoesNotResend() async {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("busy", statusCode: 503), .text("ok"))
        let apiClient = Self.client(stubClient, retrier: RetryPolicy(retriesNonIdempotentMethods: true))

        let result = await apiClient.PUT("/blob", body: .stream(Self.rows()))

        #expect(stubClient.receivedRequests.count == 1)
        #expect(result.error?.statusCode == 503)
    }

    @Test("a streamed body made by a factory is retried like any other")
    func replayableBodyIsRetried() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("busy", statusCode: 503), .text("ok"))
        let apiClient = Self.client(stubClient)
        apiClient.responseInterceptors.append(RetryOn503())

        let response = try await apiClient.POST("/ingest", body: .stream(replayable: { Self.rows() })).get()

        #expect(stubClient.receivedRequests.count == 2)
        #expect(response.statusCode == 200)
    }

    @Test("a one-shot body hands out its chunks once; a factory makes them again")
    func makeChunksOnce() async throws {
        let oneShot = try #require(HTTPBody.stream(length: 4, Self.rows()).streamed)
        let replayable = try #require(HTTPBody.stream(replayable: { Self.rows() }).streamed)

        _ = try oneShot.makeChunks()
        #expect(throws: APIClientError.self) { try oneShot.makeChunks() }
        let first = try replayable.makeChunks()
        let second = try replayable.makeChunks()
        #expect(try await first.next() == Data("row\n".utf8))
        #expect(try await second.next() == Data("row\n".utf8))
        #expect(oneShot.length == 4 && !oneShot.isReplayable && replayable.isReplayable)
    }

    @Test("a streamed body cannot be read into memory, and says so")
    func bodyDataFails() {
        let request = HTTPRequest(method: .post, baseEndpoint: "https://api.example.com", body: .stream(Self.rows()))
        #expect(throws: APIClientError.self) { try request.bodyData() }
        #expect(request.body?.description == "(streamed body)")
    }
}
