import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// RFC 9111 §4.2 (freshness and age) and §5.2.1 (request directives), over `StubHTTPClient` and a virtual clock.
@Suite("RFC 9111 §4.2 freshness, §5.2.1 request directives", .timeLimit(.minutes(1)))
struct RFC9111FreshnessTests {
    /// A harness whose `/item` answers `first`, then `v2` with `max-age=60`.
    func harness(_ headers: HTTPHeaders, status: Int = 200) -> CacheHarness {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", statusCode: status, headers: headers),
            .text("v2", headers: ["Cache-Control": "max-age=60"]))
        return cache
    }

    @Test("§4.2.1 max-age: fresh while the age is below it, stale (and sent again) after")
    func maxAge() async throws {
        let cache = harness(["Cache-Control": "max-age=60"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(59))
        #expect(try await cache.get().cacheStatus == .hit)
        await cache.clock.advance(by: .seconds(1))
        let stale = try await cache.get()
        #expect(stale.cacheStatus == .miss)
        #expect(stale.bodyText == "v2")
        #expect(stale.headers[CacheInterceptor.Status.fieldName]?.contains("fwd=stale") == true)
    }

    @Test("§4.2.1 max-age takes precedence over Expires")
    func maxAgeBeatsExpires() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10", "Expires": cache.date(3600)]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(11))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§4.2.1 Expires minus Date is the freshness lifetime")
    func expiresMinusDate() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Date": cache.date(-100), "Expires": cache.date(200)]))
        _ = try await cache.get()
        // Lifetime 300 s; the apparent age is 100 s already.
        await cache.clock.advance(by: .seconds(199))
        #expect(try await cache.get().cacheStatus == .hit)
        await cache.clock.advance(by: .seconds(1))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§5.3 an invalid Expires (such as 0) means the response is already stale")
    func invalidExpiresIsStale() async throws {
        let cache = harness(["Expires": "0"])
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .miss)
        #expect(cache.sent.count == 2)
    }

    @Test("§4.2.1 an invalid max-age means the response is stale")
    func invalidMaxAgeIsStale() async throws {
        let cache = harness(["Cache-Control": "max-age=soon", "Expires": "Wed, 21 Oct 2099 07:28:00 GMT"])
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§4.2.3 the current age adds the Age field and the response delay, and a served response gets Age")
    func ageCalculation() async throws {
        let cache = harness(["Cache-Control": "max-age=60", "Age": "50"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(9))
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["Age"] == "59")
        await cache.clock.advance(by: .seconds(1))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§1.2.2 an Age too large to represent reads as 2^31: the response is stale, and served stale it never traps")
    func hugeAge() async throws {
        let cache = harness(["Cache-Control": "max-age=60", "Age": String(repeating: "9", count: 400)])
        _ = try await cache.get()
        let stale = try await cache.get(headers: [.cacheControl: "max-stale"])
        #expect(stale.cacheStatus == .staleHit)
        #expect(stale.headers["Age"] == "2147483648")
        #expect(cache.sent.count == 1)
    }

    @Test("§4.2.3 the apparent age (response time minus Date) counts")
    func apparentAge() async throws {
        let dated = CacheHarness()
        dated.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60", "Date": dated.date(-45)]))
        _ = try await dated.get()
        await dated.clock.advance(by: .seconds(14))
        #expect(try await dated.get().cacheStatus == .hit)
        await dated.clock.advance(by: .seconds(1))
        #expect(try await dated.get().cacheStatus == .miss)
    }

    @Test("§4.2.2 heuristic freshness is 10% of the time since Last-Modified, and is marked")
    func heuristicFreshness() async throws {
        let cache = harness(["Last-Modified": CacheHarness.httpDate(Date(timeIntervalSince1970: 1_700_000_000 - 1000))])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(99))
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers[CacheInterceptor.Status.fieldName]?.contains("detail=heuristic") == true)
        await cache.clock.advance(by: .seconds(1))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§4.2.2 heuristic freshness is capped at a day")
    func heuristicCap() async throws {
        let cache = harness(["Last-Modified": "Sat, 01 Jan 2000 00:00:00 GMT"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(86_399))
        #expect(try await cache.get().cacheStatus == .hit)
        await cache.clock.advance(by: .seconds(1))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§4.2.2 no heuristic freshness when the response has explicit freshness or its status is not cacheable")
    func noHeuristicWhenNotAllowed() async throws {
        let cache = harness(["Last-Modified": "Sat, 01 Jan 2000 00:00:00 GMT"], status: 202)
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§5.2.1.1 request max-age: a stored response older than it is not used")
    func requestMaxAge() async throws {
        let cache = harness(["Cache-Control": "max-age=600"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        #expect(try await cache.get(headers: ["Cache-Control": "max-age=60"]).cacheStatus == .hit)
        let older = try await cache.get(headers: ["Cache-Control": "max-age=10"])
        #expect(older.cacheStatus == .miss)
        #expect(older.headers[CacheInterceptor.Status.fieldName]?.contains("fwd=request") == true)
    }

    @Test("§5.2.1.2 request max-stale: a stale response within the limit (or any, without one) is served")
    func requestMaxStale() async throws {
        let cache = harness(["Cache-Control": "max-age=10"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(40))
        let within = try await cache.get(headers: ["Cache-Control": "max-stale=60"])
        #expect(within.cacheStatus == .staleHit)
        #expect(within.bodyText == "v1")
        #expect(try await cache.get(headers: ["Cache-Control": "max-stale"]).cacheStatus == .staleHit)
        #expect(cache.sent.count == 1)
        #expect(try await cache.get(headers: ["Cache-Control": "max-stale=5"]).cacheStatus == .miss)
    }

    @Test("§5.2.1.3 request min-fresh: a response fresh for less than it is not used")
    func requestMinFresh() async throws {
        let cache = harness(["Cache-Control": "max-age=60"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        #expect(try await cache.get(headers: ["Cache-Control": "min-fresh=20"]).cacheStatus == .hit)
        #expect(try await cache.get(headers: ["Cache-Control": "min-fresh=40"]).cacheStatus == .miss)
    }

    @Test("§5.2.1.4 request no-cache: a stored response is validated first, even fresh")
    func requestNoCache() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=600", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["ETag": #""a""#]))
        _ = try await cache.get()
        let validated = try await cache.get(headers: ["Cache-Control": "no-cache"])
        #expect(validated.cacheStatus == .revalidated)
        #expect(cache.sent.last?.headers[.ifNoneMatch] == #""a""#)
        #expect(try await cache.get(headers: ["Pragma": "no-cache"]).cacheStatus == .revalidated)
        #expect(cache.sent.count == 3)
    }

    @Test("§5.2.1.7 only-if-cached: a 504 when nothing usable is stored, the stored response when it is fresh")
    func onlyIfCached() async throws {
        let cache = harness(["Cache-Control": "max-age=10"])
        let nothing = try await cache.get(headers: ["Cache-Control": "only-if-cached"])
        #expect(nothing.statusCode == 504)
        #expect(nothing.cacheStatus == .miss)
        #expect(cache.sent.isEmpty)
        _ = try await cache.get()
        #expect(try await cache.get(headers: ["Cache-Control": "only-if-cached"]).statusCode == 200)
        await cache.clock.advance(by: .seconds(20))
        #expect(try await cache.get(headers: ["Cache-Control": "only-if-cached"]).statusCode == 504)
        #expect(try await cache.get(headers: ["Cache-Control": "only-if-cached, max-stale"]).cacheStatus == .staleHit)
        #expect(cache.sent.count == 1)
    }

    @Test("§5.2.1.7 only-if-cached's 504 is an error under the client's default validation")
    func onlyIfCachedIsAnErrorByDefault() async throws {
        let stub = StubHTTPClient()
        let client = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        client.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 16)))
        let result = await client.GET("/item", headers: ["Cache-Control": "only-if-cached"])
        guard case .failure(.httpResponseError(let response)) = result else {
            Issue.record("expected httpResponseError, got \(result)")
            return
        }
        #expect(response.statusCode == 504)
        #expect(stub.receivedRequests.isEmpty)
    }
}
