import BothamNetworking
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: CacheInterceptor", .timeLimit(.minutes(1)))
    struct HTTPBinCacheTests {
        /// A client for httpbin with a fresh in-memory cache and the default (2xx) validation, so a 304 that leaked
        /// out of the cache would be an error.
        func client() -> (BothamAPIClient, CacheInterceptor) {
            let cache = CacheInterceptor(storage: .memory(maxBytes: 4 << 20))
            let client = BothamAPIClient(
                baseEndpoint: HTTPBin.url ?? "http://127.0.0.1:9", httpClient: HTTPBin.transport(),
                configuration: .init(maxRetries: 0))
            client.interceptors.append(cache)
            return (client, cache)
        }

        @Test("/cache: the stored response is revalidated with its validators and httpbin's 304 serves its body")
        func cacheEndpoint() async throws {
            let (apiClient, _) = client()
            let first = try await apiClient.GET("/cache").get()
            #expect(first.cacheStatus == .miss)
            let second = try await apiClient.GET("/cache").get()
            #expect(second.cacheStatus == .revalidated)
            #expect(second.statusCode == 200)
            #expect(second.body == first.body)
            #expect(second.request.headers[.ifNoneMatch] != nil || second.request.headers["If-Modified-Since"] != nil)
        }

        @Test("/cache/{n}: max-age makes the second request a hit that never reaches httpbin")
        func cacheSeconds() async throws {
            let (apiClient, _) = client()
            let first = try await apiClient.GET("/cache/60").get()
            let second = try await apiClient.GET("/cache/60").get()
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .hit)
            #expect(second.body == first.body)
            // httpbin echoes a request id-free body; the headers prove the hit was served from the store.
            #expect(second.headers["Age"] != nil)
        }

        @Test("/etag/{etag}: the cache revalidates with If-None-Match, the caller's own If-Match passes through")
        func etag() async throws {
            let (apiClient, _) = client()
            let first = try await apiClient.GET("/etag/abc").get()
            #expect(first.headers[.eTag] == "abc")
            let revalidated = try await apiClient.GET("/etag/abc").get()
            #expect(revalidated.cacheStatus == .revalidated)
            #expect(revalidated.request.headers[.ifNoneMatch] == "abc")
            #expect(revalidated.body == first.body)
            let matching = try await apiClient.GET("/etag/abc", headers: ["If-Match": "abc"]).get()
            #expect(matching.statusCode == 200)
            let mismatched = await apiClient.GET("/etag/abc", headers: ["If-Match": #""other""#])
            guard case .failure(.httpResponseError(let response)) = mismatched else {
                Issue.record("expected a 412 httpResponseError, got \(mismatched)")
                return
            }
            #expect(response.statusCode == 412)
            #expect(response.cacheStatus == .miss)
        }

        @Test("/response-headers: Cache-Control max-age is stored, no-store is not")
        func responseHeaders() async throws {
            let (apiClient, cache) = client()
            _ = try await apiClient.GET("/response-headers", parameters: ["Cache-Control": "max-age=60"]).get()
            #expect(
                try await apiClient.GET("/response-headers", parameters: ["Cache-Control": "max-age=60"]).get()
                    .cacheStatus == .hit)
            let stored = cache.storage.totalBytes
            _ = try await apiClient.GET("/response-headers", parameters: ["Cache-Control": "no-store"]).get()
            #expect(
                try await apiClient.GET("/response-headers", parameters: ["Cache-Control": "no-store"]).get()
                    .cacheStatus == .miss)
            #expect(cache.storage.totalBytes == stored)
        }
    }
}
