import BothamNetworking
import Foundation
import Testing

@Suite("RateLimitHeaders", .timeLimit(.minutes(1)))
struct RateLimitHeadersTests {
    /// 2023-11-14 22:13:20 UTC, the virtual clock's default start.
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func reading(_ headers: HTTPHeaders) -> RateLimitReading? {
        RateLimitHeaders.reading(in: headers, now: now)
    }

    @Test("Draft-08 structured fields: r and t of the RateLimit item; without t, the window w of its policy")
    func draft08StructuredFields() {
        #expect(
            reading(["RateLimit": "\"default\";r=50;t=30", "RateLimit-Policy": "\"default\";q=100;w=60"])
                == RateLimitReading(remaining: 50, reset: .seconds(30)))
        #expect(
            reading(["RateLimit": "\"default\";r=0", "RateLimit-Policy": "\"default\";q=100;w=60"])
                == RateLimitReading(remaining: 0, reset: .seconds(60)))
        #expect(reading(["RateLimit": "\"default\";r=7"]) == RateLimitReading(remaining: 7, reset: nil))
        #expect(reading(["RateLimit-Policy": "\"default\";q=100;w=60"]) == nil)
    }

    @Test("Several policies in one field, or a field split over several lines: the most restrictive wins")
    func mostRestrictiveItem() {
        #expect(
            reading(["RateLimit": "\"second\";r=3;t=1, \"minute\";r=0;t=40, \"hour\";r=0;t=20"])
                == RateLimitReading(remaining: 0, reset: .seconds(40)))
        var split = HTTPHeaders()
        split.add("RateLimit", "\"a\";r=10;t=5")
        split.add("RateLimit", "\"b\";r=2;t=50")
        #expect(reading(split) == RateLimitReading(remaining: 2, reset: .seconds(50)))
        #expect(
            reading(["RateLimit": "\"a, b\";r=4;t=5, \"c\";r=9;t=1"])
                == RateLimitReading(remaining: 4, reset: .seconds(5)))
    }

    @Test("Draft-07's dictionary: remaining and reset in delta seconds")
    func draft07Dictionary() {
        #expect(
            reading(["RateLimit": "limit=100, remaining=50, reset=30"])
                == RateLimitReading(remaining: 50, reset: .seconds(30)))
        #expect(reading(["RateLimit": "limit=100, reset=30"]) == nil)
    }

    @Test("The earlier drafts' separate RateLimit-Remaining and RateLimit-Reset, a list read by its first element")
    func separateDraftFields() {
        #expect(
            reading(["RateLimit-Limit": "100", "RateLimit-Remaining": "0", "RateLimit-Reset": "15"])
                == RateLimitReading(remaining: 0, reset: .seconds(15)))
        #expect(
            reading(["RateLimit-Remaining": "5, 5;w=60", "RateLimit-Reset": "2000000000"])
                == RateLimitReading(remaining: 5, reset: .seconds(2_000_000_000)))
    }

    @Test("X-RateLimit-Reset over 10⁹ is a Unix time measured from now (GitHub); at or below, delta seconds")
    func vendorResetEpochOrDelta() {
        #expect(
            reading(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000045"])
                == RateLimitReading(remaining: 0, reset: .seconds(45)))
        #expect(
            reading(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "45"])
                == RateLimitReading(remaining: 0, reset: .seconds(45)))
        #expect(
            reading(["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "1000000000"])
                == RateLimitReading(remaining: 3, reset: .seconds(1_000_000_000)))
        // A Unix time already past is a reset now.
        #expect(
            reading(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1699999990"])
                == RateLimitReading(remaining: 0, reset: .zero))
        #expect(reading(["X-RateLimit-Remaining": "12"]) == RateLimitReading(remaining: 12, reset: nil))
    }

    @Test("OpenAI's x-ratelimit-remaining-requests with its Go-duration reset")
    func openAIRequests() {
        #expect(
            reading(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"])
                == RateLimitReading(remaining: 0, reset: .seconds(360)))
        #expect(
            reading(["x-ratelimit-remaining-requests": "59", "x-ratelimit-reset-requests": "1.5s"])
                == RateLimitReading(remaining: 59, reset: .milliseconds(1_500)))
        // The token budget is not a request count.
        #expect(reading(["x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "20ms"]) == nil)
    }

    @Test("Forms sent together: the most restrictive reading wins")
    func formsTogether() {
        #expect(
            reading([
                "RateLimit": "\"default\";r=10;t=30", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "12",
                "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "20s",
            ]) == RateLimitReading(remaining: 0, reset: .seconds(20)))
    }

    @Test(
        "Garbage is ignored, never a crash",
        arguments: [
            ["X-RateLimit-Remaining": "-1", "X-RateLimit-Reset": "10"],
            ["X-RateLimit-Remaining": "abc"],
            ["X-RateLimit-Remaining": "1e3"],
            ["X-RateLimit-Remaining": "99999999999999999999999"],
            ["X-RateLimit-Remaining": ""],
            ["RateLimit": "\"default\";r=abc;t=30"],
            ["RateLimit": "\"default\";t=30"],
            ["RateLimit": "\"unterminated;r=0;t=30"],
            ["RateLimit": "remaining=, reset=="],
            ["RateLimit": ",,,;;;\"\"\\"],
            ["RateLimit": "default;r=0;t=30"],
            ["x-ratelimit-remaining-requests": "0.5"],
        ] as [HTTPHeaders]
    )
    func garbageIgnored(headers: HTTPHeaders) {
        #expect(reading(headers) == nil)
    }

    @Test("A reset that cannot be read leaves the count without a reset; an absurd one is capped, not overflowed")
    func unreadableOrAbsurdReset() {
        #expect(
            reading(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "soon"])
                == RateLimitReading(remaining: 0, reset: nil))
        #expect(
            reading(["RateLimit": "\"d\";r=0;t=-5"]) == RateLimitReading(remaining: 0, reset: nil))
        #expect(
            reading(["RateLimit-Remaining": "0", "RateLimit-Reset": String(repeating: "9", count: 400)])
                == RateLimitReading(remaining: 0, reset: nil))
        #expect(
            reading(["RateLimit-Remaining": "0", "RateLimit-Reset": "1" + String(repeating: "0", count: 30)])
                == RateLimitReading(remaining: 0, reset: .seconds(1e15)))
        #expect(
            reading(["RateLimit": "\"d\";r=0;t=1" + String(repeating: "0", count: 30)])
                == RateLimitReading(remaining: 0, reset: .seconds(1e15)))
    }

    @Test("The default budget key is the request's origin, its port only when not the scheme's default")
    func originKey() throws {
        let url = { (text: String) in try #require(URL(string: text)) }
        let origin = { (text: String) in RateLimitInterceptor.origin(of: HTTPRequest(method: .get, url: try url(text)))
        }
        #expect(try origin("https://API.example.com/search?q=1") == "https://api.example.com")
        #expect(try origin("https://api.example.com:443/a") == "https://api.example.com")
        #expect(try origin("http://localhost:8080/a") == "http://localhost:8080")
        #expect(try origin("http://[::1]:8080/a") == "http://[::1]:8080")
    }
}
