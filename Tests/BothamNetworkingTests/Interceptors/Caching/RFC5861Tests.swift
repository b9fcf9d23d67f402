import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// RFC 5861: `stale-while-revalidate` and `stale-if-error`, over `StubHTTPClient` and a virtual clock.
@Suite("RFC 5861 stale-while-revalidate and stale-if-error", .timeLimit(.minutes(1)))
struct RFC5861Tests {
    @Test("RFC 5861 §3 stale-while-revalidate: stale served at once, one background revalidation updates the store")
    func staleWhileRevalidate() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""a""#]),
            .text("v2", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""b""#]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let stale = try await cache.get()
        #expect(stale.cacheStatus == .staleHit)
        #expect(stale.bodyText == "v1")
        #expect(stale.headers[CacheInterceptor.Status.fieldName]?.contains("detail=stale-while-revalidate") == true)
        await cache.cache.waitForBackgroundRevalidations()
        #expect(cache.sent.count == 2)
        #expect(cache.sent.last?.headers[.ifNoneMatch] == #""a""#)
        let fresh = try await cache.get()
        #expect(fresh.cacheStatus == .hit)
        #expect(fresh.bodyText == "v2")
    }

    @Test("RFC 5861 §3 concurrent stale hits start one background revalidation per entry")
    func oneRevalidationPerEntry() async throws {
        // The revalidation's answer takes 300 ms on the virtual clock, so every stale hit arrives while it runs.
        let cache = CacheHarness(latency: .clock)
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"]),
            .text("v2", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"]).delayed(
                by: .milliseconds(300)))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let statuses = try await withThrowingTaskGroup(of: CacheInterceptor.Status?.self) { group in
            for _ in 0..<10 { group.addTask { try await cache.get().cacheStatus } }
            return try await group.reduce(into: [CacheInterceptor.Status?]()) { $0.append($1) }
        }
        try await cache.clock.waitForSleepers(1)  // the one revalidation, waiting for its answer
        #expect(cache.clock.sleeps == [.milliseconds(300)])
        await cache.clock.advance(by: .milliseconds(300))
        await cache.cache.waitForBackgroundRevalidations()
        #expect(statuses.allSatisfy { $0 == .staleHit || $0 == .hit })
        #expect(statuses.contains(.staleHit))
        #expect(statuses.allSatisfy { $0 == .staleHit }, "the revalidation cannot end before the clock moves")
        // Each stale hit either started the revalidation or found it running (or already done: then it was a hit).
        #expect(cache.sent.count == 2)
    }

    @Test("RFC 5861 §3 beyond the stale-while-revalidate window the response is validated in the foreground")
    func beyondWindow() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=5"]),
            .text("v2"))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let response = try await cache.get()
        #expect(response.cacheStatus == .miss)
        #expect(response.bodyText == "v2")
    }

    @Test("RFC 5861 §4 stale-if-error: a 5xx within the window is answered with the stored response")
    func staleIfErrorOnServerError() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-if-error=60"]),
            .response(statusCode: 503))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        let response = try await cache.get()
        #expect(response.statusCode == 200)
        #expect(response.bodyText == "v1")
        #expect(response.cacheStatus == .staleHit)
        #expect(response.headers[CacheInterceptor.Status.fieldName]?.contains("fwd-status=503") == true)
        await cache.clock.advance(by: .seconds(60))
        #expect(try await cache.get().statusCode == 503)
    }

    @Test("RFC 5861 §4 stale-if-error: a network failure within the window is answered with the stored response")
    func staleIfErrorOnTransportFailure() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-if-error=60"]),
            .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        #expect(try await cache.get().bodyText == "v1")
    }

    @Test("RFC 5861 §4 the request's stale-if-error opens the window too; without one the failure reaches the caller")
    func requestStaleIfError() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10"]), .response(statusCode: 500))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        #expect(try await cache.get().statusCode == 500)
        let rescued = try await cache.get(headers: ["Cache-Control": "stale-if-error=60"])
        #expect(rescued.statusCode == 200)
        #expect(rescued.cacheStatus == .staleHit)
    }

    @Test("RFC 5861 §4 a 404 is not an error stale-if-error hides: it replaces nothing and reaches the caller")
    func clientErrorNotHidden() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, stale-if-error=60"]),
            .response(statusCode: 404))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        #expect(try await cache.get().statusCode == 404)
    }
}
