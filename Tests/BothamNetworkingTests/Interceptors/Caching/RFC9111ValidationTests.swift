import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// RFC 9111 §4.3 (validation), §5.2.2 (response directives) and §4.4 (invalidation), over `StubHTTPClient` and a
/// virtual clock.
@Suite("RFC 9111 §4.3 validation, §5.2.2 response directives, §4.4 invalidation", .timeLimit(.minutes(1)))
struct RFC9111ValidationTests {
    @Test("§4.3.1 a stale response with an ETag is validated with If-None-Match; the 304 serves the stored body")
    func etagValidation() async throws {
        let cache = CacheHarness()
        try await cache.storeStaleTaggedItem()
        let revalidated = try await cache.get()
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.bodyText == "v1")
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(cache.sent.last?.headers[.ifNoneMatch] == #""a""#)
        // §4.3.4: the stored fields were updated, so the new max-age makes it fresh again.
        #expect(revalidated.headers["X-New"] == "1")
        await cache.clock.advance(by: .seconds(50))
        #expect(try await cache.get().cacheStatus == .hit)
        #expect(cache.sent.count == 2)
    }

    @Test("§4.3.1 a stale response with Last-Modified is validated with If-Modified-Since")
    func lastModifiedValidation() async throws {
        let cache = CacheHarness()
        let lastModified = "Sat, 01 Jan 2000 00:00:00 GMT"
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=0", "Last-Modified": lastModified]),
            .response(statusCode: 304))
        _ = try await cache.get()
        let revalidated = try await cache.get()
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.bodyText == "v1")
        #expect(cache.sent.last?.headers["If-Modified-Since"] == lastModified)
    }

    @Test("§3.2 a 304 updates the stored fields but not Content-Length")
    func notModifiedKeepsContentLength() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=0", "ETag": #""a""#, "Content-Length": "2"]),
            .response(statusCode: 304, headers: ["Content-Length": "0", "X-Version": "2"]))
        _ = try await cache.get()
        let revalidated = try await cache.get()
        #expect(revalidated.headers[.contentLength] == "2")
        #expect(revalidated.headers["X-Version"] == "2")
    }

    @Test("§4.3.3 a full response to a conditional request replaces the stored one")
    func fullResponseReplaces() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=0", "ETag": #""a""#]),
            .text("v2", headers: ["Cache-Control": "max-age=60", "ETag": #""b""#]))
        _ = try await cache.get()
        let replaced = try await cache.get()
        #expect(replaced.bodyText == "v2")
        #expect(replaced.cacheStatus == .miss)
        let hit = try await cache.get()
        #expect(hit.bodyText == "v2")
        #expect(hit.cacheStatus == .hit)
    }

    @Test("§4.3.4 a 304 whose strong ETag is not the stored one is not used: the request is sent again plainly")
    func mismatchedNotModified() async throws {
        let cache = CacheHarness(maxRetries: 1)
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=0", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["ETag": #""z""#]), .text("v3"))
        _ = try await cache.get()
        let response = try await cache.get()
        #expect(response.bodyText == "v3")
        #expect(cache.sent.count == 3)
        #expect(cache.sent.last?.headers[.ifNoneMatch] == nil)
    }

    @Test("§4.3 the caller's own conditional request bypasses the cache and gets the 304")
    func callerConditionalBypasses() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["ETag": #""a""#]))
        _ = try await cache.get()
        let mine = try await cache.get(headers: [.ifNoneMatch: #""a""#])
        #expect(mine.statusCode == 304)
        #expect(cache.sent.count == 2)
    }

    @Test("§5.2.2.2 must-revalidate: a stale response is never served unvalidated, not even for max-stale")
    func mustRevalidate() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text(
                "v1",
                headers: [
                    "Cache-Control": "max-age=10, must-revalidate, stale-if-error=600, stale-while-revalidate=600",
                    "ETag": #""a""#,
                ]),
            .response(statusCode: 304))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let response = try await cache.get(headers: ["Cache-Control": "max-stale"])
        #expect(response.cacheStatus == .revalidated)
        #expect(cache.sent.count == 2)
    }

    @Test("§5.2.2.2 must-revalidate: when the server cannot be reached the caller gets the error, not the stale body")
    func mustRevalidateUnreachable() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=10, must-revalidate, stale-if-error=600"]),
            .failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        await #expect(throws: APIClientError.self) { try await cache.get() }
    }

    @Test("§5.2.2.4 no-cache: the stored response is validated on every use")
    func responseNoCache() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "no-cache, max-age=600", "ETag": #""a""#]),
            .response(statusCode: 304))
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .revalidated)
        #expect(try await cache.get().cacheStatus == .revalidated)
        #expect(cache.sent.count == 3)
    }

    @Test("§5.2.2.4 no-cache with field names: served fresh without those fields, with them once validated")
    func qualifiedNoCache() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text(
                "v1", headers: ["Cache-Control": #"no-cache="X-Secret", max-age=60"#, "X-Secret": "s", "ETag": #""a""#]),
            .response(statusCode: 304))
        _ = try await cache.get()
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["X-Secret"] == nil)
        let validated = try await cache.get(headers: ["Cache-Control": "no-cache"])
        #expect(validated.headers["X-Secret"] == "s")
    }

    @Test("§5.2.2.8 proxy-revalidate applies to shared caches only: a private cache may serve it stale")
    func proxyRevalidateIgnored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, proxy-revalidate"]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        #expect(try await cache.get(headers: ["Cache-Control": "max-stale"]).cacheStatus == .staleHit)
    }

    @Test("§5.2.2.10 s-maxage applies to shared caches only: max-age decides")
    func sMaxAgeIgnored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10, s-maxage=600"]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§4.4 a successful POST invalidates the stored responses of its URL, for every credential")
    func unsafeInvalidatesTarget() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "private, max-age=600"]))
        _ = try await cache.get()
        _ = try await cache.get(headers: [.authorization: "Bearer a"])
        _ = try await cache.client.POST("/item").get()
        #expect(try await cache.get().cacheStatus == .miss)
        #expect(try await cache.get(headers: [.authorization: "Bearer a"]).cacheStatus == .miss)
    }

    @Test("§4.4 same-origin Location and Content-Location are invalidated, another origin's are not")
    func unsafeInvalidatesLocations() async throws {
        let cache = CacheHarness()
        cache.stub.stub(with: .text("v", headers: ["Cache-Control": "max-age=600"]))
        cache.stub.stub(
            .method(.put),
            with: .response(
                statusCode: 201,
                headers: ["Location": "/a", "Content-Location": "https://api.example.com/b"]))
        cache.stub.stub(
            .method(.delete), with: .response(statusCode: 204, headers: ["Location": "https://other.example.com/c"]))
        for path in ["/a", "/b"] { _ = try await cache.get(path) }
        let other = cache.client.request(.get, "/c").withBaseEndpoint("https://other.example.com")
        _ = try await cache.client.response(for: other)
        _ = try await cache.client.PUT("/x").get()
        _ = try await cache.client.DELETE("/y").get()
        #expect(try await cache.get("/a").cacheStatus == .miss)
        #expect(try await cache.get("/b").cacheStatus == .miss)
        #expect(try await cache.client.response(for: other).cacheStatus == .hit)
    }

    @Test("§4.4 an unsafe request that fails invalidates nothing")
    func failedUnsafeInvalidatesNothing() async throws {
        let cache = CacheHarness()
        cache.stub.stub(with: .text("v", headers: ["Cache-Control": "max-age=600"]))
        cache.stub.stub(.method(.post), with: .response(statusCode: 500))
        _ = try await cache.get()
        _ = try await cache.client.POST("/item").get()
        #expect(try await cache.get().cacheStatus == .hit)
    }
}
