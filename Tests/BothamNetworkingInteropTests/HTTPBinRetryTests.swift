import BothamNetworking
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: RetryPolicy on statuses and echoed wait headers", .timeLimit(.minutes(1)))
    struct HTTPBinRetryTests {
        /// A backoff so short that any wait measured below comes from a response's hint, not from it.
        static let shortBackoff = RetryPolicy.Backoff(baseDelay: .milliseconds(10), maxDelay: .milliseconds(10))

        /// A client of httpbin that retries with a short backoff, at most `maxRetries` times, the statuses in
        /// `retryable` (httpbin's `/response-headers` echoes a wait header on a 200, so those tests retry a 200).
        func client(maxRetries: Int, retryable: Set<Int> = [408, 429, 500, 502, 503, 504]) -> BothamAPIClient {
            let policy = RetryPolicy(backoff: Self.shortBackoff, retryableStatusCodes: retryable)
            return BothamAPIClient(
                baseEndpoint: HTTPBin.url ?? "http://127.0.0.1:9", httpClient: HTTPBin.transport(),
                configuration: .init(maxRetries: maxRetries, retrier: policy))
        }

        @Test("/status/429 and /status/503 spend the retries, and the error exposes the status", arguments: [429, 503])
        func budgetSpent(status: Int) async throws {
            let result = await client(maxRetries: 2).GET("/status/\(status)")
            guard case .failure(let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(error.statusCode == status)
            guard case .retryLimitExceeded(let attempts, _) = error else {
                Issue.record("expected retryLimitExceeded, got \(error)")
                return
            }
            #expect(attempts == 3)
        }

        @Test("an echoed Retry-After beyond retryAfterLimit (60 s) ends the call at once with that response")
        func beyondCeiling() async throws {
            let (result, duration) = await elapsed {
                await client(maxRetries: 2, retryable: [200]).GET("/response-headers?Retry-After=120")
            }
            let response = try result.get()
            #expect(response.headers[.retryAfter] == "120")
            #expect(duration < .seconds(2))
        }

        @Test("an echoed Retry-After: 1 is waited out in full before the retry")
        func retryAfterWaited() async throws {
            let (result, duration) = await elapsed {
                await client(maxRetries: 1, retryable: [200]).GET("/response-headers?Retry-After=1")
            }
            guard case .failure(.retryLimitExceeded(let attempts, .success(let last))) = result else {
                Issue.record("expected the 200 retried once, got \(result)")
                return
            }
            #expect(attempts == 2)
            #expect(last.headers[.retryAfter] == "1")
            #expect(duration >= .milliseconds(950) && duration < .seconds(5))
        }

        @Test("an echoed retry-after-ms is waited out to the millisecond, instead of a longer Retry-After")
        func retryAfterMilliseconds() async throws {
            let (result, duration) = await elapsed {
                await client(maxRetries: 2, retryable: [200]).GET("/response-headers?retry-after-ms=250&Retry-After=30")
            }
            guard case .failure(.retryLimitExceeded(let attempts, _)) = result else {
                Issue.record("expected the 200 retried twice, got \(result)")
                return
            }
            #expect(attempts == 3)
            #expect(duration >= .milliseconds(490) && duration < .seconds(3))
        }

        @Test("an echoed Retry-After HTTP-date is waited out until that date")
        func retryAfterDate() async throws {
            let date = Date(timeIntervalSinceNow: 3)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let value = formatter.string(from: date)
            let (result, duration) = await elapsed {
                await client(maxRetries: 1, retryable: [200]).GET(
                    "/response-headers?Retry-After=\(HTTPBin.queryValue(value))")
            }
            guard case .failure(.retryLimitExceeded(let attempts, _)) = result else {
                Issue.record("expected the 200 retried once, got \(result)")
                return
            }
            #expect(attempts == 2)
            // The date has whole seconds: the wait is between 2 and 3 s.
            #expect(duration >= .milliseconds(1_900) && duration < .seconds(6))
        }
    }
}
