import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

extension APIAppInteropTests {
    @Suite("API app: RateLimitInterceptor keeps within the server's budget", .timeLimit(.minutes(1)))
    struct APIAppRateLimitTests {
        /// A client of the app with a fresh `RateLimitInterceptor` (its own budgets) whose waits go to `waits`; it
        /// does not retry, so a 429 would end a call.
        func client(
            _ waits: Recorder<RateLimitInterceptor.Wait>, requestsPerSecond: Double? = nil,
            maxConcurrentRequestsPerHost: Int? = nil, retrier: (any RequestRetrier)? = nil, maxRetries: Int = 0
        ) -> BothamAPIClient {
            let apiClient = APIApp.client(.init(maxRetries: maxRetries, retrier: retrier))
            apiClient.interceptors.append(
                RateLimitInterceptor(
                    requestsPerSecond: requestsPerSecond, maxConcurrentRequestsPerHost: maxConcurrentRequestsPerHost,
                    onWait: { waits.append($0) }))
            return apiClient
        }

        /// The seconds between the app's receipt of consecutive requests for `id`.
        func gaps(_ id: String) async throws -> [Double] {
            let times = try await APIApp.requests(for: id).map(\.time)
            return zip(times.dropFirst(), times).map { $0 - $1 }
        }

        @Test(
            "more calls than a window allows all succeed, without one 429: the client waits out each reset",
            arguments: ["github", "ietf", "ietf-07"])
        func staysWithinBudget(style: String) async throws {
            let waits = Recorder<RateLimitInterceptor.Wait>()
            let apiClient = client(waits)
            let id = APIApp.newID()
            for call in 1...7 {
                let result = await apiClient.GET("/limited?id=\(id)&limit=3&window=1&style=\(style)")
                #expect(result.failureStatusCode == nil, "call \(call): \(result)")
            }
            let statuses = try await APIApp.requests(for: id).map(\.status)
            #expect(statuses == Array(repeating: 200, count: 7))
            // 3 calls a window: the 4th and the 7th wait for a reset (each under the 2 s a window lasts at most).
            #expect(waits.values.count >= 2)
            #expect(waits.values.allSatisfy { $0.reason == .budgetSpent && $0.budget == APIApp.url })
            #expect(waits.values.allSatisfy { $0.duration > .zero && $0.duration <= .seconds(2) })
        }

        @Test("a 429's Retry-After holds the next call back until then, reported as a retryAfter wait")
        func retryAfterBlocksTheBudget() async throws {
            let waits = Recorder<RateLimitInterceptor.Wait>()
            let apiClient = client(waits)
            let id = APIApp.newID()
            #expect(await apiClient.GET("/flaky?id=\(id)&failures=1&retry_after=1").failureStatusCode == 429)
            let (result, duration) = await elapsed { await apiClient.GET("/flaky?id=\(id)&failures=1") }
            #expect(try result.get().statusCode == 200)
            #expect(duration >= .milliseconds(900))
            #expect(waits.values.map(\.reason) == [.retryAfter])
            #expect(waits.values.allSatisfy { $0.duration > .milliseconds(800) && $0.duration <= .seconds(1) })
            #expect(try await gaps(id).allSatisfy { $0 >= 0.95 })
        }

        @Test("with RetryPolicy, a 429's Retry-After is waited once, not by both")
        func retryWaitsOnce() async throws {
            let waits = Recorder<RateLimitInterceptor.Wait>()
            let policy = RetryPolicy(backoff: APIAppRetryTests.shortBackoff)
            let apiClient = client(waits, retrier: policy, maxRetries: 2)
            let id = APIApp.newID()
            let (result, duration) = await elapsed { await apiClient.GET("/flaky?id=\(id)&failures=1&retry_after=1") }
            #expect(try result.get().statusCode == 200)
            #expect(duration >= .milliseconds(950) && duration < .milliseconds(1_900))
            #expect(try await gaps(id).count == 1)
        }

        @Test("requestsPerSecond spaces the calls the app receives, reported as tokenBucket waits")
        func tokenBucket() async throws {
            let waits = Recorder<RateLimitInterceptor.Wait>()
            let apiClient = client(waits, requestsPerSecond: 5)
            let id = APIApp.newID()
            for _ in 1...4 { #expect(await apiClient.GET("/flaky?id=\(id)&failures=0").failureStatusCode == nil) }
            #expect(try await gaps(id).allSatisfy { $0 >= 0.18 })
            #expect(waits.values.count == 3)
            #expect(waits.values.allSatisfy { $0.reason == .tokenBucket })
        }

        /// The body of `/slow`.
        struct Slow: Decodable, Sendable {
            let inFlight: Int

            enum CodingKeys: String, CodingKey {
                case inFlight = "in_flight"
            }
        }

        @Test("maxConcurrentRequestsPerHost: 1 makes concurrent calls reach the app one at a time")
        func concurrencyLimit() async throws {
            let waits = Recorder<RateLimitInterceptor.Wait>()
            let apiClient = client(waits, maxConcurrentRequestsPerHost: 1)
            let id = APIApp.newID()
            let inFlight = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 1...3 {
                    group.addTask {
                        try await apiClient.GET("/slow?id=\(id)&ms=150").get().decoded(as: Slow.self).inFlight
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(inFlight == [1, 1, 1])
            #expect(waits.values.map(\.reason) == [.concurrencyLimit, .concurrencyLimit])
        }
    }
}
