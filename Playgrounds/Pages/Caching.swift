import BothamNetworking
import BothamNetworkingTesting
import Foundation
import PlaygroundSupport

/// A private HTTP cache: fresh hits without a round trip, conditional requests answered 304, stale-if-error.
public enum Caching: PlaygroundPage {
    /// The page's name.
    public static let name = "Caching"
    /// What the page shows.
    public static let summary = "CacheInterceptor: fresh hits, ETag revalidation with 304, where a response came from"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)
        apiClient.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 10 << 20)))

        // `/cache/60` says `max-age=60`: the second GET is answered from the store.
        let first = try await apiClient.GET("/cache/60").get()
        let second = try await apiClient.GET("/cache/60").get()
        context.say(
            "/cache/60: \(first.cacheStatus?.description ?? "-"), then \(second.cacheStatus?.description ?? "-")")
        try context.check(second.cacheStatus == .hit && second.body == first.body, "a fresh response is a hit")

        // `/etag/{etag}` has no freshness: the cache sends If-None-Match and serves its body on the 304.
        let tagged = try await apiClient.GET("/etag/v1").get()
        let revalidated = try await apiClient.GET("/etag/v1").get()
        context.say(
            "/etag/v1 again: \(revalidated.cacheStatus?.description ?? "-") with status \(revalidated.statusCode)")
        try context.check(
            revalidated.cacheStatus == .revalidated && revalidated.statusCode == 200 && revalidated.body == tagged.body,
            "a 304 is answered with the stored body")

        // Offline, on a virtual clock: stale-if-error serves the last good answer when the server fails.
        let stub = StubHTTPClient()
        stub.stub(
            .path("/status"), with: .text("all good", headers: ["Cache-Control": "max-age=10, stale-if-error=3600"]),
            .response(statusCode: 503))
        let clock = VirtualClock()
        let offline = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub, configuration: .init(clock: clock))
        offline.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20)))
        _ = try await offline.GET("/status").get()
        await clock.advance(by: .seconds(60))
        let rescued = try await offline.GET("/status").get()
        context.say(
            "a minute later the server answers 503; the caller gets: \(rescued.statusCode) \(rescued.cacheStatus?.description ?? "-")"
        )
        try context.check(
            rescued.statusCode == 200 && rescued.cacheStatus == .staleHit, "stale-if-error hides the server's 503")
    }
}
