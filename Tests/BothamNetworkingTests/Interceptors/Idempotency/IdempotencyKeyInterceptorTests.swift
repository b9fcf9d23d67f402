import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("IdempotencyKeyInterceptor", .timeLimit(.minutes(1)))
struct IdempotencyKeyInterceptorTests {
    let stub = StubHTTPClient()
    let clock = VirtualClock(sleeping: .advancesClock)

    /// A client whose interceptor numbers its keys `key-1`, `key-2`, … in the order it makes them.
    func client(retrier: RetryPolicy? = RetryPolicy(jitter: .none), maxRetries: Int = 3) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(maxRetries: maxRetries, retrier: retrier, clock: clock))
        let keys = NumberedKeys()
        apiClient.interceptors.append(IdempotencyKeyInterceptor(newKey: keys.next))
        return apiClient
    }

    var sentKeys: [String?] { stub.receivedRequests.map { $0.headers["Idempotency-Key"] } }

    @Test("Every attempt of a POST carries the same key, and a 429 on it is retried")
    func sameKeyOnEveryAttempt() async throws {
        stub.stub(
            with: .response(statusCode: 429, headers: ["retry-after-ms": "250"]), .response(statusCode: 503),
            .text("created"))
        let result = await client().POST("/v1/chat/completions", body: ["model": "m"])
        #expect(try result.get().statusCode == 200)
        #expect(sentKeys == ["key-1", "key-1", "key-1"])
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(1_000)])
    }

    @Test("Each call gets a key of its own")
    func keyPerCall() async {
        stub.stub(with: .text("a"), .text("b"))
        let apiClient = client()
        _ = await apiClient.POST("/orders", body: ["n": 1])
        _ = await apiClient.POST("/orders", body: ["n": 2])
        #expect(sentKeys == ["key-1", "key-2"])
    }

    @Test("Only a POST or PATCH without a key of its own gets one")
    func onlyPostAndPatchWithoutKey() async {
        stub.stub(with: .text("ok"))
        let apiClient = client()
        _ = await apiClient.send(apiClient.request(.patch, "/orders/1", body: ["n": 1]))
        _ = await apiClient.send(apiClient.request(.post, "/orders").withHeader("Idempotency-Key", "mine"))
        _ = await apiClient.GET("/orders")
        _ = await apiClient.send(apiClient.request(.put, "/orders/1", body: ["n": 1]))
        _ = await apiClient.send(apiClient.request(.delete, "/orders/1"))
        #expect(sentKeys == ["key-1", "mine", nil, nil, nil])
    }

    @Test("A POST is retried only with a key: without the interceptor its 503 is returned at once")
    func postRetriedOnlyWithKey() async {
        stub.stub(with: .response(statusCode: 503), .text("created"))
        let plain = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(retrier: RetryPolicy(jitter: .none), clock: clock))
        #expect(await plain.POST("/orders", body: ["n": 1]).statusCode == 503)
        #expect(sentKeys == [nil])

        stub.stub(with: .response(statusCode: 503), .text("created"))
        #expect(await client().POST("/orders", body: ["n": 1]).statusCode == 200)
        #expect(sentKeys == [nil, "key-1", "key-1"])
    }
}

/// Keys `key-1`, `key-2`, … in the order they are asked for.
final class NumberedKeys: Sendable {
    private let made = Lock(0)

    func next() -> String {
        let number = made.withLock { count in
            count += 1
            return count
        }
        return "key-\(number)"
    }
}
