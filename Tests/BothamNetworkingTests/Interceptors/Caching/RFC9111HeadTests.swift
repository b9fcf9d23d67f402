import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// HEAD and the cache: RFC 9110 §9.3.2 (a HEAD response is a GET response without its content) and RFC 9111 §4.3.5
/// (a HEAD response freshens a stored GET response), over `StubHTTPClient` and a virtual clock.
@Suite("RFC 9111 §4.3.5 HEAD, RFC 9110 §9.3.2", .timeLimit(.minutes(1)))
struct RFC9111HeadTests {
    @Test("§9.3.2 a HEAD is answered from a fresh stored GET response: its status and fields, no body, nothing sent")
    func headServedFromStoredGet() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60", "ETag": #""a""#]))
        _ = try await cache.get()
        let head = try await cache.head()
        #expect(head.statusCode == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers[.eTag] == #""a""#)
        #expect(head.headers["Age"] == "0")
        #expect(head.cacheStatus == .hit)
        #expect(cache.sent.count == 1)
        // The stored body is still whole for the next GET.
        let get = try await cache.get()
        #expect(get.bodyText == "v1")
        #expect(get.cacheStatus == .hit)
    }

    @Test("§9.3.2 a HEAD response is not stored: with no stored GET response every HEAD and the next GET are sent")
    func headResponseNotStored() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .response(headers: ["Cache-Control": "max-age=60", "ETag": #""a""#]),
            .response(headers: ["Cache-Control": "max-age=60", "ETag": #""a""#]),
            .text("v1", headers: ["Cache-Control": "max-age=60"]))
        #expect(try await cache.head().cacheStatus == .miss)
        #expect(try await cache.head().cacheStatus == .miss)
        let get = try await cache.get()
        #expect(get.cacheStatus == .miss)
        #expect(get.bodyText == "v1")
        #expect(cache.sent.map(\.method) == [.head, .head, .get])
    }

    @Test("§4.3.1 a HEAD for a stale stored GET response is sent conditional; its 304 updates the stored response")
    func headRevalidatesStoredGet() async throws {
        let cache = CacheHarness()
        try await cache.storeStaleTaggedItem()
        let head = try await cache.head()
        #expect(head.statusCode == 200)
        #expect(head.body.isEmpty)
        #expect(head.cacheStatus == .revalidated)
        #expect(head.headers["X-New"] == "1")
        #expect(cache.sent.last?.method == .head)
        #expect(cache.sent.last?.headers[.ifNoneMatch] == #""a""#)
        await cache.clock.advance(by: .seconds(50))
        let get = try await cache.get()
        #expect(get.cacheStatus == .hit)
        #expect(get.bodyText == "v1")
        #expect(get.headers["X-New"] == "1")
        #expect(cache.sent.count == 2)
    }

    @Test("§4.3.5 a HEAD's 200 with the stored validators and length freshens the stored GET response with its fields")
    func headFreshensStoredGet() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=10", "ETag": #""a""#, "Content-Length": "2"]),
            .response(
                headers: [
                    "Cache-Control": "max-age=100", "ETag": #""a""#, "Content-Length": "2", "X-New": "1",
                ]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let head = try await cache.head()
        #expect(head.statusCode == 200)
        #expect(head.cacheStatus == .miss)
        await cache.clock.advance(by: .seconds(50))
        let get = try await cache.get()
        #expect(get.cacheStatus == .hit)
        #expect(get.bodyText == "v1")
        #expect(get.headers["X-New"] == "1")
        #expect(get.headers[.contentLength] == "2")
        #expect(cache.sent.map(\.method) == [.get, .head])
    }

    @Test(
        "§4.3.5 a HEAD's 200 with another ETag, Last-Modified or Content-Length makes the stored GET response unusable",
        arguments: [
            ["ETag": #""b""#], ["Last-Modified": "Sat, 01 Jan 2000 00:00:00 GMT"], ["Content-Length": "7"],
        ] as [HTTPHeaders])
    func headInvalidatesStoredGet(_ changed: HTTPHeaders) async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text(
                "v1",
                headers: [
                    "Cache-Control": "max-age=10", "ETag": #""a""#, "Last-Modified": "Fri, 31 Dec 1999 00:00:00 GMT",
                ]),
            .response(headers: HTTPHeaders(["Cache-Control": "max-age=100", "ETag": #""a""#]).merging(changed)),
            .text("v2", headers: ["Cache-Control": "max-age=100"]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        #expect(try await cache.head().cacheStatus == .miss)
        let get = try await cache.get()
        #expect(get.cacheStatus == .miss)
        #expect(get.bodyText == "v2")
        #expect(cache.sent.map(\.method) == [.get, .head, .get])
        #expect(cache.sent.last?.headers[.ifNoneMatch] == nil)
    }

    @Test("§5.2.1.7 only-if-cached HEAD: the stored GET response's head when fresh, a 504 when nothing is stored")
    func headOnlyIfCached() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60"]))
        let nothing = try await cache.head(headers: [.cacheControl: "only-if-cached"])
        #expect(nothing.statusCode == 504)
        _ = try await cache.get()
        let stored = try await cache.head(headers: [.cacheControl: "only-if-cached"])
        #expect(stored.statusCode == 200)
        #expect(stored.body.isEmpty)
        #expect(cache.sent.count == 1)
    }

    @Test("§9.3.2 a HEAD with a file destination gets an empty file, never the stored body")
    func headToFile() async throws {
        let cache = CacheHarness()
        cache.stub.stub(.path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=60"]))
        _ = try await cache.get()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("botham-head-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("old".utf8).write(to: file)
        let request = cache.client.request(.head, "/item").withResponseDestination(
            .file(file, options: [.replaceExistingFile]))
        let head = try await cache.client.response(for: request)
        #expect(head.cacheStatus == .hit)
        #expect(head.bodyFileURL == file)
        #expect(try Data(contentsOf: file).isEmpty)
    }
}
