import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports: CacheInterceptor against MockWebServer", .timeLimit(.minutes(1)))
    struct TransportCacheTests {
        /// A client over `transport` for `server` with `cache` and the default (2xx) validation, so a 304 that
        /// leaked out of the cache would be an error.
        func client(_ transport: TransportUnderTest, _ server: MockWebServer, _ cache: CacheInterceptor)
            -> BothamAPIClient
        {
            let client = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make(),
                configuration: .init(maxRetries: 0))
            client.interceptors.append(cache)
            return client
        }

        @Test(
            "ETag revalidation: If-None-Match is sent, the 304 serves the stored body",
            arguments: TransportUnderTest.allCases)
        func etagRevalidation(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "max-age=0").withHeader("ETag", #""v1""#).withJSONBody(
                    #"{"tag":"v1"}"#))
            server.enqueue(MockResponse().withStatus(304).withHeader("ETag", #""v1""#))
            let apiClient = client(transport, server, CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
            let first = try await apiClient.response(for: apiClient.request(.get, "/manifest"))
            let second = try await apiClient.response(for: apiClient.request(.get, "/manifest"))
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .revalidated)
            #expect(second.statusCode == 200)
            #expect(second.body == Data(#"{"tag":"v1"}"#.utf8))
            _ = try await server.takeRequest()
            #expect(try await server.takeRequest().headers[.ifNoneMatch] == #""v1""#)
        }

        @Test(
            "Last-Modified revalidation: If-Modified-Since is sent, the 304 serves the stored body",
            arguments: TransportUnderTest.allCases)
        func lastModifiedRevalidation(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let lastModified = "Sat, 01 Jan 2000 00:00:00 GMT"
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "no-cache").withHeader("Last-Modified", lastModified)
                    .withBody("dated"))
            server.enqueue(MockResponse().withStatus(304))
            let apiClient = client(transport, server, CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
            _ = try await apiClient.response(for: apiClient.request(.get, "/doc"))
            let second = try await apiClient.response(for: apiClient.request(.get, "/doc"))
            #expect(second.cacheStatus == .revalidated)
            #expect(second.body == Data("dated".utf8))
            _ = try await server.takeRequest()
            #expect(try await server.takeRequest().headers["If-Modified-Since"] == lastModified)
        }

        @Test(
            "Vary: a different Accept-Language goes to the server, the same one is a hit",
            arguments: TransportUnderTest.allCases)
        func vary(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDispatcher { request in
                MockResponse().withHeader("Cache-Control", "max-age=600").withHeader("Vary", "Accept-Language")
                    .withBody(request.headers[.acceptLanguage] ?? "none")
            }
            let apiClient = client(transport, server, CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
            func get(_ language: String) async throws -> HTTPResponse {
                try await apiClient.response(
                    for: apiClient.request(.get, "/greeting", headers: [.acceptLanguage: language]))
            }
            #expect(try await get("en").body == Data("en".utf8))
            let hit = try await get("en")
            #expect(hit.cacheStatus == .hit)
            let other = try await get("fr")
            #expect(other.cacheStatus == .miss)
            #expect(other.body == Data("fr".utf8))
            #expect(server.requestCount == 2)
        }

        @Test(
            "HEAD: answered from a fresh stored GET without a request; a HEAD's 200 with a new ETag (§4.3.5) makes the next GET fetch anew",
            arguments: TransportUnderTest.allCases)
        func headUsesStoredGet(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "max-age=60").withHeader("ETag", #""v1""#).withBody("fresh"))
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "no-cache").withHeader("ETag", #""v1""#).withBody("old"))
            server.enqueue(MockResponse().withHeader("Cache-Control", "no-cache").withHeader("ETag", #""v2""#))
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "max-age=60").withHeader("ETag", #""v2""#).withBody("new"))
            let apiClient = client(transport, server, CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
            _ = try await apiClient.response(for: apiClient.request(.get, "/fresh"))
            let head = try await apiClient.response(for: apiClient.request(.head, "/fresh"))
            #expect(head.cacheStatus == .hit)
            #expect(head.statusCode == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers[.eTag] == #""v1""#)
            #expect(server.requestCount == 1)
            _ = try await apiClient.response(for: apiClient.request(.get, "/stale"))
            let changed = try await apiClient.response(for: apiClient.request(.head, "/stale"))
            #expect(changed.cacheStatus == .miss)
            #expect(changed.headers[.eTag] == #""v2""#)
            let refetched = try await apiClient.response(for: apiClient.request(.get, "/stale"))
            #expect(refetched.cacheStatus == .miss)
            #expect(refetched.body == Data("new".utf8))
            let recorded = [
                try await server.takeRequest(), try await server.takeRequest(), try await server.takeRequest(),
                try await server.takeRequest(),
            ]
            #expect(recorded.map(\.method) == [.get, .get, .head, .get])
            #expect(recorded[2].headers[.ifNoneMatch] == #""v1""#)
            #expect(recorded[3].headers[.ifNoneMatch] == nil)
        }

        @Test("no-store: every request reaches the server", arguments: TransportUnderTest.allCases)
        func noStore(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDefaultResponse(
                MockResponse().withHeader("Cache-Control", "no-store, max-age=600").withBody("secret"))
            let cache = CacheInterceptor(storage: .memory(maxBytes: 1 << 20))
            let apiClient = client(transport, server, cache)
            for _ in 0..<3 {
                #expect(try await apiClient.response(for: apiClient.request(.get, "/secret")).cacheStatus == .miss)
            }
            #expect(server.requestCount == 3)
            #expect(cache.storage.totalBytes == 0)
        }

        @Test(
            "stale-if-error: a 503 and then a dropped connection are answered with the stored response",
            arguments: TransportUnderTest.allCases)
        func staleIfError(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withHeader("Cache-Control", "max-age=0, stale-if-error=600").withBody("last good"))
            server.enqueue(MockResponse().withStatus(503))
            // Every later request (a transport may retry a dropped connection once) is dropped too.
            server.setDefaultResponse(MockResponse().withSocketPolicy(.disconnectAtStart))
            let apiClient = client(transport, server, CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
            _ = try await apiClient.response(for: apiClient.request(.get, "/status"))
            for _ in 0..<2 {
                let rescued = try await apiClient.response(for: apiClient.request(.get, "/status"))
                #expect(rescued.cacheStatus == .staleHit)
                #expect(rescued.body == Data("last good".utf8))
            }
            #expect(server.requestCount >= 3)
        }

        @Test(
            "the disk store serves a second client instance (a restart) without a request",
            arguments: TransportUnderTest.allCases)
        func diskAcrossInstances(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "botham-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            server.enqueue(MockResponse().withHeader("Cache-Control", "max-age=600").withBody("on disk"))
            let first = client(
                transport, server, CacheInterceptor(storage: .disk(directory: folder, maxBytes: 1 << 20)))
            _ = try await first.response(for: first.request(.get, "/persisted"))
            let second = client(
                transport, server, CacheInterceptor(storage: .disk(directory: folder, maxBytes: 1 << 20)))
            let hit = try await second.response(for: second.request(.get, "/persisted"))
            #expect(hit.cacheStatus == .hit)
            #expect(hit.body == Data("on disk".utf8))
            #expect(server.requestCount == 1)
        }

        @Test(
            "a large download is stored from its file and served into a new file",
            arguments: TransportUnderTest.allCases)
        func largeDownload(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "botham-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let body = TransportTest.pattern(count: 3 << 20)
            server.enqueue(MockResponse().withHeader("Cache-Control", "max-age=600").withBody(body))
            let apiClient = client(
                transport, server,
                CacheInterceptor(storage: .disk(directory: folder.appendingPathComponent("store"), maxBytes: 16 << 20)))
            let first = try await apiClient.download("/big", to: .file(folder.appendingPathComponent("1"))).get()
            let second = try await apiClient.download("/big", to: .file(folder.appendingPathComponent("2"))).get()
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .hit)
            #expect(try Data(contentsOf: try #require(second.bodyFileURL)) == body)
            #expect(server.requestCount == 1)
        }
    }
}
