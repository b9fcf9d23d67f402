import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("A keyed POST that got a 429 is retried with the same Idempotency-Key", .timeLimit(.minutes(1)))
    struct TransportIdempotentRetryTests {
        @Test(
            "MockWebServer answers 429 with retry-after-ms, then 200: the wait is exact and both requests carry one key",
            arguments: TransportUnderTest.allCases)
        func keyedPostRetried(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withStatus(429).withHeader("retry-after-ms", "1250"))
            server.enqueue(MockResponse().withJSONBody(#"{"id":"chatcmpl-1"}"#))
            let clock = VirtualClock(sleeping: .advancesClock)
            let apiClient = TransportTest.client(transport, server)
            apiClient.configuration.maxRetries = 2
            apiClient.configuration.retrier = RetryPolicy()
            apiClient.configuration.clock = clock
            apiClient.interceptors.append(IdempotencyKeyInterceptor())

            let result = await apiClient.send(
                apiClient.request(.post, "/v1/chat/completions", body: ["model": "m"]).withTimeout(.seconds(5)))

            #expect(try result.get().statusCode == 200)
            #expect(clock.sleeps == [.milliseconds(1_250)])
            let first = try await server.takeRequest(timeout: .seconds(5))
            let second = try await server.takeRequest(timeout: .seconds(5))
            let key = try #require(first.header("Idempotency-Key"))
            #expect(!key.isEmpty)
            #expect(second.header("Idempotency-Key") == key)
            #expect(first.method == .post && second.method == .post)
        }
    }
}
