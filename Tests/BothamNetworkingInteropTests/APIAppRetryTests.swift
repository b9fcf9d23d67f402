import BothamNetworking
import Foundation
import Testing

extension APIAppInteropTests {
    @Suite("API app: retries that honour the server's wait, and Idempotency-Key", .timeLimit(.minutes(1)))
    struct APIAppRetryTests {
        /// A backoff so short that any wait measured below comes from the server's hint, not from it.
        static let shortBackoff = RetryPolicy.Backoff(baseDelay: .milliseconds(10), maxDelay: .milliseconds(10))

        /// A client of the app that retries with `policy` (a short backoff by default) at most `maxRetries` times.
        func client(
            maxRetries: Int = 3, policy: RetryPolicy = RetryPolicy(backoff: APIAppRetryTests.shortBackoff)
        ) -> BothamAPIClient {
            APIApp.client(.init(maxRetries: maxRetries, retrier: policy))
        }

        /// The seconds between the app's receipt of consecutive requests for `id`.
        func gaps(_ id: String) async throws -> [Double] {
            let times = try await APIApp.requests(for: id).map(\.time)
            return zip(times.dropFirst(), times).map { $0 - $1 }
        }

        /// The body of `/flaky`'s final 200.
        struct Flaky: Decodable, Sendable {
            let attempts: Int
            let idempotencyKeys: [String?]
            let methods: [String]

            enum CodingKeys: String, CodingKey {
                case attempts, methods
                case idempotencyKeys = "idempotency_keys"
            }
        }

        @Test(
            "a GET answered 429 or 503 with Retry-After: 1 is retried after a second, then succeeds",
            arguments: [429, 503])
        func retryAfterSeconds(status: Int) async throws {
            let id = APIApp.newID()
            let (result, duration) = await elapsed {
                await client().GET("/flaky?id=\(id)&failures=1&status=\(status)&retry_after=1")
            }
            #expect(try result.get().statusCode == 200)
            let gaps = try await gaps(id)
            #expect(gaps.count == 1)
            #expect(gaps.allSatisfy { $0 >= 0.95 && $0 < 5 })
            #expect(duration >= .milliseconds(950))
        }

        @Test("retry-after-ms sets the wait to the millisecond, and wins over a longer Retry-After")
        func retryAfterMilliseconds() async throws {
            let id = APIApp.newID()
            let (result, duration) = await elapsed {
                await client().GET("/flaky?id=\(id)&failures=2&retry_after_ms=300&retry_after=30")
            }
            #expect(try result.get().statusCode == 200)
            let gaps = try await gaps(id)
            #expect(gaps.count == 2)
            #expect(gaps.allSatisfy { $0 >= 0.29 && $0 < 1.5 })
            #expect(duration >= .milliseconds(590) && duration < .seconds(3))
        }

        @Test("IdempotencyKeyInterceptor: a POST answered 429 is retried, every attempt with the call's one key")
        func idempotentPost() async throws {
            let apiClient = client()
            apiClient.interceptors.append(IdempotencyKeyInterceptor())
            let id = APIApp.newID()
            let flaky = try await apiClient.POST(
                "/flaky?id=\(id)&failures=2&retry_after_ms=50", body: .json(["n": 1] as JSONValue)
            )
            .get().decoded(as: Flaky.self)
            #expect(flaky.attempts == 3)
            #expect(flaky.methods == ["POST", "POST", "POST"])
            let key = try #require(flaky.idempotencyKeys.first ?? nil)
            #expect(flaky.idempotencyKeys == [key, key, key])
            #expect(try await APIApp.requests(for: id).map(\.idempotencyKey) == [key, key, key])

            let another = APIApp.newID()
            let second = try await apiClient.POST("/flaky?id=\(another)&failures=1&retry_after_ms=50").get()
                .decoded(as: Flaky.self)
            #expect(second.idempotencyKeys.count == 2)
            #expect(second.idempotencyKeys.allSatisfy { $0 != nil && $0 != key })
            #expect(Set(second.idempotencyKeys).count == 1)
        }

        @Test("without an Idempotency-Key a POST answered 429 is not retried: the call ends with that 429")
        func postWithoutKey() async throws {
            let id = APIApp.newID()
            let result = await client().POST("/flaky?id=\(id)&failures=1&retry_after_ms=50")
            #expect(result.failureStatusCode == 429)
            #expect(try await APIApp.requests(for: id).count == 1)
        }

        @Test("when the retries are spent on 429s the error still exposes the last 429 and its headers")
        func budgetSpent() async throws {
            let id = APIApp.newID()
            let result = await client(maxRetries: 2).GET("/flaky?id=\(id)&failures=5&retry_after_ms=20")
            guard case .failure(let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(error.statusCode == 429)
            #expect(error.response?.headers["retry-after-ms"] == "20")
            guard case .retryLimitExceeded(let attempts, _) = error else {
                Issue.record("expected retryLimitExceeded, got \(error)")
                return
            }
            #expect(attempts == 3)
            #expect(try await APIApp.requests(for: id).count == 3)
        }

        @Test(
            "a Retry-After beyond retryAfterLimit fails at once with the 429 that asked for it",
            arguments: [(120, nil), (2, 1)] as [(Int, Int?)])
        func beyondCeiling(retryAfter: Int, limitSeconds: Int?) async throws {
            var policy = RetryPolicy(backoff: Self.shortBackoff)
            if let limitSeconds {
                policy = RetryPolicy(backoff: Self.shortBackoff, retryAfterLimit: .seconds(limitSeconds))
            }
            let id = APIApp.newID()
            let (result, duration) = await elapsed {
                await client(policy: policy).GET("/flaky?id=\(id)&failures=1&retry_after=\(retryAfter)")
            }
            guard case .failure(.httpResponseError(let response)) = result else {
                Issue.record("expected the 429 as httpResponseError, got \(result)")
                return
            }
            #expect(response.statusCode == 429)
            #expect(response.headers[.retryAfter] == "\(retryAfter)")
            #expect(duration < .seconds(1))
            #expect(try await APIApp.requests(for: id).count == 1)
        }
    }
}
