import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// A client over a `StubHTTPClient` with a `CacheInterceptor` on a virtual clock.
struct CacheHarness {
    let stub: StubHTTPClient
    /// The client's clock: ages and freshness move only when the test advances it.
    let clock = VirtualClock()
    let cache: CacheInterceptor
    let client: BothamAPIClient

    init(
        storage: CacheInterceptor.Storage = .memory(maxBytes: 1 << 20), maxRetries: Int = 0,
        latency: StubHTTPClient.LatencyMode = .virtual
    ) {
        stub = StubHTTPClient(latency: latency)
        cache = CacheInterceptor(storage: storage)
        client = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(maxRetries: maxRetries, validation: .acceptAll, clock: clock))
        client.interceptors.append(cache)
    }

    /// `GET path` with `headers`.
    func get(_ path: String = "/item", parameters: HTTPParameters = [:], headers: HTTPHeaders = [:]) async throws
        -> HTTPResponse
    {
        try await client.response(for: client.request(.get, path, parameters: parameters, headers: headers))
    }

    /// `HEAD path` with `headers`.
    /// Stores `/item` ("v1", `max-age=10`, ETag `"a"`, answered `304` with `max-age=100` and `X-New: 1` when
    /// revalidated) and lets it go stale (20 s later).
    func storeStaleTaggedItem() async throws {
        stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=10", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["ETag": #""a""#, "Cache-Control": "max-age=100", "X-New": "1"]))
        _ = try await get()
        await clock.advance(by: .seconds(20))
    }

    func head(_ path: String = "/item", headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        try await client.response(for: client.request(.head, path, headers: headers))
    }

    /// The requests the server received.
    var sent: [HTTPRequest] { stub.receivedRequests }

    /// The IMF-fixdate of the clock's time plus `offset` seconds.
    func date(_ offset: Double = 0) -> String {
        CacheHarness.httpDate(clock.currentDate.addingTimeInterval(offset))
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension HTTPResponse {
    /// The body as UTF-8 text.
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
