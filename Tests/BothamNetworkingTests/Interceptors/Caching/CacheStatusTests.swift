import BothamNetworking
import Foundation
import Testing

@Suite(
    "CacheInterceptor.Status: the Cache-Status field a CacheInterceptor writes and reads back", .timeLimit(.minutes(1)))
struct CacheStatusTests {
    func response(_ value: String?) -> HTTPResponse {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")
        return HTTPResponse(
            statusCode: 200, headers: value.map { [CacheInterceptor.Status.fieldName: $0] } ?? [:], request: request)
    }

    @Test("each documented field value reads back as its status")
    func readsBack() {
        #expect(response("BothamNetworking; hit; ttl=42").cacheStatus == .hit)
        #expect(response("BothamNetworking; hit; ttl=3; detail=heuristic").cacheStatus == .hit)
        #expect(response("BothamNetworking; hit; ttl=-3; detail=stale-while-revalidate").cacheStatus == .staleHit)
        #expect(response("BothamNetworking; fwd=stale; fwd-status=304").cacheStatus == .revalidated)
        #expect(response("BothamNetworking; fwd=uri-miss; fwd-status=200; stored").cacheStatus == .miss)
        #expect(response("BothamNetworking; detail=only-if-cached").cacheStatus == .miss)
    }

    @Test("another cache's member is not ours, and no field means no cache")
    func othersIgnored() {
        #expect(response("OtherCache; hit").cacheStatus == nil)
        #expect(response("OtherCache; hit, BothamNetworking; fwd=uri-miss").cacheStatus == .miss)
        #expect(response(nil).cacheStatus == nil)
    }

    @Test("a request the cache does not handle still says it was a miss, and a stale hit of under a second is stale")
    func everyResponseIsLabelled() async throws {
        let cache = CacheHarness()
        cache.stub.stub(with: .text("v", headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"]))
        let post = try await cache.client.POST("/item").get()
        #expect(post.cacheStatus == .miss)
        #expect(post.headers[CacheInterceptor.Status.fieldName]?.contains("fwd=bypass") == true)
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(10.2))
        #expect(try await cache.get().cacheStatus == .staleHit)
        await cache.cache.waitForBackgroundRevalidations()
    }
}
