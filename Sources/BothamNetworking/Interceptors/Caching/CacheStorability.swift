/// Whether a private cache may store a response (RFC 9111 §3, §3.5), and whether a request may use the cache.
enum CacheStorability {
    /// The conditional and range fields that make a request the caller's own validation or partial request: such a
    /// request bypasses the cache (sent as it is, its response neither served from nor stored in the cache).
    static let callerConditionals: [HTTPFieldName] = [
        .ifNoneMatch, "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range",
    ]

    /// Whether the cache handles `request` at all: a `GET` or a `HEAD` (answered from a stored `GET` response, RFC
    /// 9110 §9.3.2) without the caller's own conditionals or `Range`, and not a WebSocket handshake.
    static func usesCache(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head)
            && !request.headers.fields.contains { field in callerConditionals.contains(field.name) }
            && !WebSocketUpgrade.isRequested(by: request)
    }

    /// Whether `response` to `request` (with request directives `requestControl`) may be stored (§3):
    ///
    /// - the method is `GET` (the only one this cache stores) and the status is final and understood: not `206`
    ///   (a partial response is never stored as a full one), not `304`, not `1xx`;
    /// - neither the request nor the response has `no-store` — except that a response with `must-understand`
    ///   (§5.2.2.3) is stored only when this cache understands its status (the statuses RFC 9110 makes cacheable by
    ///   default, whose rules it implements), and then its `no-store` is ignored, as the directive intends;
    /// - `Vary: *` is not stored (it could never be selected, §4.1);
    /// - a request with `Authorization` is stored only when the response explicitly allows it (§3.5): `public`,
    ///   `private`, `s-maxage` or `must-revalidate`;
    /// - the response has explicit freshness (`max-age`, `Expires`), `public` or `private`, or a heuristically
    ///   cacheable status (§4.2.2).
    static func isStorable(_ response: HTTPResponse, request: HTTPRequest, requestControl: CacheControl) -> Bool {
        let status = response.statusCode
        guard request.method == .get, status >= 200, status != 206, status != 304 else { return false }
        let control = CacheControl(response.headers)
        let mustUnderstand = control.has("must-understand")
        if mustUnderstand, !CacheFreshness.heuristicallyCacheable.contains(status) { return false }
        guard mustUnderstand || !control.has("no-store"), !requestControl.has("no-store") else { return false }
        guard !CacheVary(response: response.headers, request: request.headers).matchesNothing else { return false }
        if request.headers.contains(.authorization) {
            guard ["public", "private", "s-maxage", "must-revalidate"].contains(where: control.has) else {
                return false
            }
        }
        return control.has("max-age") || response.headers.contains("Expires") || control.has("public")
            || control.has("private") || CacheFreshness.heuristicallyCacheable.contains(status)
    }
}
