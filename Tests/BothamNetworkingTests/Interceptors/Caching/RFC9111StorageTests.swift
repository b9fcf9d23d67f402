import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// RFC 9111 §3 and §4.1 (storing, keys, `Vary`) for a private cache, over `StubHTTPClient` and a virtual clock.
@Suite("RFC 9111 §3 storing responses, §4.1 Vary", .timeLimit(.minutes(1)))
struct RFC9111StorageTests {
    @Test("§3 a cacheable 200 is stored and served fresh without contacting the server")
    func storesAndServes() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60"]), .text("v2"))
        let first = try await cache.get()
        await cache.clock.advance(by: .seconds(30))
        let second = try await cache.get()
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .hit)
        #expect(second.bodyText == "v1")
        #expect(cache.sent.count == 1)
    }

    @Test("§3 a response to a method other than GET is not stored")
    func unsafeMethodNotStored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("posted", headers: ["Cache-Control": "max-age=60"]))
        _ = try await cache.client.POST("/item").get()
        let get = try await cache.get()
        #expect(get.cacheStatus == .miss)
        #expect(cache.sent.count == 2)
    }

    @Test("§3 a response with no-store is not stored")
    func responseNoStore() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "no-store, max-age=60"]))
        _ = try await cache.get()
        let second = try await cache.get()
        #expect(second.cacheStatus == .miss)
        #expect(cache.sent.count == 2)
        #expect(cache.cache.storage.totalBytes == 0)
    }

    @Test("§5.2.2.3 must-understand with a status the cache understands is stored, its no-store ignored")
    func mustUnderstandKnownStatus() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "must-understand, no-store, max-age=60"]))
        _ = try await cache.get()
        let second = try await cache.get()
        #expect(second.cacheStatus == .hit)
        #expect(second.bodyText == "v1")
        #expect(cache.sent.count == 1)
    }

    @Test("§5.2.2.3 must-understand with a status the cache does not understand is never stored")
    func mustUnderstandUnknownStatus() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", statusCode: 299, headers: ["Cache-Control": "must-understand, max-age=60"]))
        _ = try await cache.get()
        let second = try await cache.get()
        #expect(second.cacheStatus == .miss)
        #expect(cache.sent.count == 2)
        #expect(cache.cache.storage.totalBytes == 0)
    }

    @Test("§3 a request with no-store does not store its response, but may be served what is stored")
    func requestNoStore() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60"]))
        _ = try await cache.get(headers: ["Cache-Control": "no-store"])
        #expect(cache.cache.storage.totalBytes == 0)
        _ = try await cache.get()
        let third = try await cache.get(headers: ["Cache-Control": "no-store"])
        #expect(third.cacheStatus == .hit)
        #expect(cache.sent.count == 2)
    }

    @Test("§3 a 206 partial response is not stored as a full one")
    func partialNotStored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("par", statusCode: 206, headers: ["Cache-Control": "max-age=60"]))
        _ = try await cache.get()
        let second = try await cache.get()
        #expect(second.cacheStatus == .miss)
        #expect(cache.sent.count == 2)
    }

    @Test("§3 a response with no explicit freshness and a status not heuristically cacheable is not stored")
    func notHeuristicallyCacheable() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("created", statusCode: 201))
        _ = try await cache.get()
        #expect(cache.cache.storage.totalBytes == 0)
    }

    @Test("§3 a response with private is stored by this private cache")
    func privateStored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("mine", headers: ["Cache-Control": "private, max-age=60"]))
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .hit)
        #expect(cache.sent.count == 1)
    }

    @Test("§3.1 Connection and the fields it names are not stored")
    func connectionFieldsNotStored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text(
                "v1", headers: ["Cache-Control": "max-age=60", "Connection": "X-Hop", "X-Hop": "1", "X-Kept": "2"]))
        _ = try await cache.get()
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["X-Hop"] == nil)
        #expect(hit.headers["Connection"] == nil)
        #expect(hit.headers["X-Kept"] == "2")
    }

    @Test("§3.5 a request with Authorization is stored only when the response explicitly allows it")
    func authorizationNeedsExplicitPermission() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/plain"), with: .text("p", headers: ["Cache-Control": "max-age=60"]))
        cache.stub.stub(.path("/allowed"), with: .text("a", headers: ["Cache-Control": "private, max-age=60"]))
        let token: HTTPHeaders = [.authorization: "Bearer a"]
        _ = try await cache.get("/plain", headers: token)
        #expect(try await cache.get("/plain", headers: token).cacheStatus == .miss)
        _ = try await cache.get("/allowed", headers: token)
        #expect(try await cache.get("/allowed", headers: token).cacheStatus == .hit)
        #expect(cache.sent.count == 3)
    }

    @Test("keys: a response stored for one Authorization or Cookie is never served to other credentials")
    func credentialsKeptApart() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/me"), with: .text("alice", headers: ["Cache-Control": "public, max-age=60"]),
            .text("bob", headers: ["Cache-Control": "public, max-age=60"]),
            .text("anonymous", headers: ["Cache-Control": "public, max-age=60"]),
            .text("cookie", headers: ["Cache-Control": "public, max-age=60"]))
        #expect(try await cache.get("/me", headers: [.authorization: "Bearer alice"]).bodyText == "alice")
        #expect(try await cache.get("/me", headers: [.authorization: "Bearer bob"]).bodyText == "bob")
        #expect(try await cache.get("/me").bodyText == "anonymous")
        #expect(try await cache.get("/me", headers: [.cookie: "session=1"]).bodyText == "cookie")
        let alice = try await cache.get("/me", headers: [.authorization: "Bearer alice"])
        #expect(alice.bodyText == "alice")
        #expect(alice.cacheStatus == .hit)
        #expect(try await cache.get("/me", headers: [.authorization: "Bearer bob"]).bodyText == "bob")
        #expect(cache.sent.count == 4)
    }

    @Test("§4.1 a stored response is used only when the fields its Vary names match")
    func varyMatches() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("en", headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]),
            .text("fr", headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]))
        _ = try await cache.get(headers: [.acceptLanguage: "en"])
        let same = try await cache.get(headers: [.acceptLanguage: "en"])
        let other = try await cache.get(headers: [.acceptLanguage: "fr"])
        #expect(same.cacheStatus == .hit)
        #expect(same.bodyText == "en")
        #expect(other.cacheStatus == .miss)
        #expect(other.bodyText == "fr")
        #expect(other.headers[CacheInterceptor.Status.fieldName]?.contains("fwd=vary-miss") == true)
    }

    @Test("§4.1 a response with Vary: * never matches, so it is not stored")
    func varyStarNeverMatches() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v", headers: ["Cache-Control": "max-age=60", "Vary": "*"]))
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .miss)
        #expect(cache.sent.count == 2)
    }

    @Test("§4.1 the URL's fragment is not part of the key, its query is")
    func keyIsTheURL() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v", headers: ["Cache-Control": "max-age=60"]))
        _ = try await cache.get(parameters: ["page": "1"])
        #expect(try await cache.get(parameters: ["page": "1"]).cacheStatus == .hit)
        #expect(try await cache.get(parameters: ["page": "2"]).cacheStatus == .miss)
    }
}
