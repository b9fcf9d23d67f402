import Foundation

/// A private HTTP cache (RFC 9111, with RFC 5861's `stale-while-revalidate` and `stale-if-error`) as an onion
/// interceptor: fresh responses are served without a round trip, stale ones are revalidated with `If-None-Match` /
/// `If-Modified-Since`, and a `304 Not Modified` is answered with the stored body.
///
/// ```swift
/// apiClient.interceptors.append(CacheInterceptor(storage: .memory(maxBytes: 10 << 20)))
/// let response = try await apiClient.get("/repos/Karumi/BothamNetworking")
/// print(response.cacheStatus ?? .miss)   // .miss, then .hit while fresh, .revalidated after a 304
/// ```
///
/// What it does:
///
/// - **Which requests**: `GET` requests whose body goes to memory, a file or a stream, and `HEAD` requests. A
///   request carrying its own `If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`, `If-Range` or
///   `Range` is the caller's own validation and bypasses the cache (its `304` reaches the caller, who accepts it
///   with ``HTTPRequest/accepting(_:)``). Other methods are sent as they are; a successful unsafe one (`POST`,
///   `PUT`, `PATCH`, `DELETE`, …) removes the stored responses of its URL and of its same-origin `Location` and
///   `Content-Location` (§4.4).
/// - **`HEAD`** (RFC 9110 §9.3.2, RFC 9111 §4.3.5): a `HEAD` is answered from the stored `GET`
///   response of its URL by the same rules as a `GET` — its status and fields (`Content-Length` included) with an
///   empty body — and validated with a conditional `HEAD` when stale. A `HEAD` response is never stored; its `200`
///   updates the stored `GET` response's fields when every validator it carries (`ETag`, `Last-Modified`) and its
///   `Content-Length` match the stored ones, and otherwise removes that response, which is out of date.
/// - **What is stored** (§3): final responses other than `206` and `304`, without `no-store` (request or
///   response), without `Vary: *`, with explicit freshness, `public`, `private` or a heuristically cacheable status;
///   a request with `Authorization` only when the response says `public`, `private`, `s-maxage` or
///   `must-revalidate` (§3.5). `Connection` and the fields it names are not stored (§3.1). Streamed responses
///   (``BothamAPIClient/stream(_:callTimeout:)``) are not stored, but a stored body is served to a streaming call.
/// - **Keys never mix users**: the key is the URL plus a SHA-256 of the request's `Authorization` and `Cookie`
///   fields as this interceptor sees them, so a response is only served to a request with the same credentials,
///   even a `public` one. Request interceptors (a token authenticator) run before every onion interceptor, so their
///   `Authorization` counts; put a ``CookieJar`` *before* the cache in ``BothamAPIClient/interceptors`` so
///   its `Cookie` does too. `Vary` selects between requests of one key (one variant per key is kept).
/// - **Freshness** (§4.2): `max-age`, else `Expires` minus `Date` (an invalid `Expires` means stale), else 10% of
///   the time since `Last-Modified`, capped at a day, for heuristically cacheable statuses (marked `heuristic` in
///   ``CacheInterceptor/Status``); ages by §4.2.3 from `Date`, `Age` and the request and response times read from the call's
///   clock (`HTTPCallContext.clock`: the client's ``BothamAPIClient/Configuration/clock``, so a test advances a
///   virtual clock to make a response stale).
///   A served stored response gets an `Age` field (§4.2.3). A response stored without `Date`, and a `304` that
///   updates one, get a `Date` of their receipt time (RFC 9110 §6.6.1). `Age` is the first member of its list (§5.1);
///   a `max-age` that is malformed or given twice with different values, and `Expires` fields that disagree, mean
///   stale (§4.2.1); a two-digit year is at most 50 years after receipt (RFC 9110 §5.6.7).
/// - **Request directives** (§5.2.1): `max-age`, `max-stale`, `min-fresh`, `no-cache`, `no-store`,
///   `only-if-cached` (a `504` when nothing stored can be used, which validation turns into
///   ``APIClientError/httpResponseError(_:)`` unless the request accepts it), and `stale-if-error`.
/// - **Validation** (§4.3): the stored `ETag` goes in `If-None-Match`, `Last-Modified` in `If-Modified-Since`; a
///   `304` updates the stored fields (§3.2, `Content-Length` excepted) and the caller gets the stored status and
///   body with them — the `304` never reaches the client's validation; a full response replaces the entry.
/// - **`must-revalidate`** (§5.2.2.2): once stale, never served without validation (not for `max-stale`,
///   `stale-while-revalidate` or `stale-if-error`); an unreachable server is the caller's error. Unqualified
///   `no-cache` always validates; `no-cache="Field"` serves the response without those fields unless validated;
///   `proxy-revalidate`, `s-maxage` and `private="Field"` apply to shared caches only and are ignored.
/// - **`stale-while-revalidate`**: a stale response within the window is served at once and one revalidation per
///   entry runs in the background. It runs in a task of its own: cancelling the call that started it does not
///   cancel it (that call already has its answer), the request's timeout and the transport's limits bound it, and
///   none is started when the calling task is already cancelled. Await them with
///   ``waitForBackgroundRevalidations()``. It sends within the call's budget of sends, and with its body in memory.
/// - **`stale-if-error`**: within the window a `500`, `502`, `503` or `504`, a network failure or a timeout is
///   answered with the stored response (``CacheInterceptor/Status/staleHit``).
/// - **Where it came from**: every response it returns carries a `Cache-Status` field read by
///   ``HTTPResponse/cacheStatus`` (see ``CacheInterceptor/Status``).
///
/// File destinations get the stored body copied into their file, and a response that went to a file is stored from
/// it without being read into memory by the disk store.
public struct CacheInterceptor: HTTPInterceptor {
    /// Where responses are kept.
    package let storage: Storage
    let revalidations = CacheRevalidations()

    /// Creates a cache over `storage`. It reads the time from each call's clock (`HTTPCallContext.clock`).
    public init(storage: Storage) {
        self.storage = storage
    }

    /// Waits until the background revalidations running now have finished.
    public func waitForBackgroundRevalidations() async {
        await revalidations.wait()
    }

    /// Cancels the background revalidations running now.
    public func cancelBackgroundRevalidations() {
        revalidations.cancelAll()
    }

    /// Answers `request` from the store, validates the stored response, or sends it and stores the response.
    public func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        guard CacheStorability.usesCache(request) else {
            let response = try await next(request)
            for url in CacheInvalidation.invalidatedURLs(by: response, for: request) {
                storage.store.removeAll(url: url)
            }
            return response.adding(CacheStatusField.miss(forward: "bypass", stored: false))
        }
        let key = try CacheKey(request)
        let requestControl = CacheControl(request.headers)
        var stored = storage.store.entry(for: key)
        var forward = "uri-miss"
        if let entry = stored, !entry.head.vary.matches(request.headers) {
            stored = nil
            forward = "vary-miss"
        }
        if let entry = stored {
            let freshness = CacheFreshness(entry.parsed, now: context.clock.currentDate)
            let decision = CacheDecision(entry: entry.parsed.control, freshness: freshness, request: requestControl)
            switch decision {
            case .fresh:
                let status = CacheStatusField.hit(freshness, detail: freshness.isHeuristic ? "heuristic" : nil)
                if let response = serve(entry, key: key, to: request, freshness: freshness, status: status) {
                    return response
                }
                stored = nil
            case .staleAccepted, .staleWhileRevalidate:
                let detail = decision == .staleAccepted ? "max-stale" : "stale-while-revalidate"
                if let response = serve(
                    entry, key: key, to: request, freshness: freshness,
                    status: CacheStatusField.hit(freshness, detail: detail))
                {
                    if decision == .staleWhileRevalidate, !Task.isCancelled {
                        revalidateInBackground(entry, key: key, request: request, clock: context.clock, next: next)
                    }
                    return response
                }
                stored = nil
            case .validate(let reason):
                forward = reason
            }
        }
        if requestControl.has("only-if-cached") {
            return HTTPResponse(
                statusCode: 504, headers: [CacheStatus.fieldName: CacheStatusField.onlyIfCached], request: request)
        }
        return try await fetch(
            request, key: key, stored: stored, forward: forward, requestControl: requestControl, clock: context.clock,
            next: next)
    }
}
