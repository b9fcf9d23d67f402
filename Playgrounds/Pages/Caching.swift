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

        // Offline, with a clock of our own: stale-if-error serves the last good answer when the server fails.
        let stub = StubHTTPClient()
        stub.stub(
            .path("/status"), with: .text("all good", headers: ["Cache-Control": "max-age=10, stale-if-error=3600"]),
            .response(statusCode: 503))
        let clock = PageClock()
        let offline = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        offline.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 1 << 20), clock: clock))
        _ = try await offline.GET("/status").get()
        clock.advance(60)
        let rescued = try await offline.GET("/status").get()
        context.say(
            "a minute later the server answers 503; the caller gets: \(rescued.statusCode) \(rescued.cacheStatus?.description ?? "-")"
        )
        try context.check(
            rescued.statusCode == 200 && rescued.cacheStatus == .staleHit, "stale-if-error hides the server's 503")
    }
}

/// A clock the page moves by hand.
final class PageClock: CacheClock {
    private let current = Lock(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
