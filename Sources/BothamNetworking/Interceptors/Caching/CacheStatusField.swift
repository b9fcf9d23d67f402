/// The `Cache-Status` values a ``CacheInterceptor`` writes (see ``CacheStatus`` for the table).
enum CacheStatusField {
    static let name = CacheStatus.cacheName

    /// A stored response served without forwarding: `ttl` is the freshness left, negative (at most -1) when stale.
    static func hit(_ freshness: CacheFreshness, detail: String?) -> String {
        let remaining = freshness.remaining.rounded(.down)
        let ttl = freshness.isFresh ? Int(clamping: Int64(max(0, remaining))) : min(-1, Int(clamping: Int64(remaining)))
        let field = name + "; hit; ttl=" + String(ttl)
        guard let detail else { return field }
        return field + "; detail=" + detail
    }

    /// A stored response served stale because the server failed with `status` (`nil`: no response at all).
    static func staleOnError(_ freshness: CacheFreshness, status: Int?) -> String {
        hit(freshness, detail: "stale-if-error") + (status.map { "; fwd=stale; fwd-status=\($0)" } ?? "")
    }

    /// A stored response the server confirmed with a `304`.
    static func revalidated(forward: String) -> String {
        "\(name); fwd=\(forward); fwd-status=304"
    }

    /// The server's response, sent for reason `forward`, and whether it was stored.
    static func miss(forward: String, status: Int? = nil, stored: Bool) -> String {
        "\(name); fwd=\(forward)" + (status.map { "; fwd-status=\($0)" } ?? "") + (stored ? "; stored" : "")
    }

    /// The `504` of an `only-if-cached` request nothing stored could answer.
    static let onlyIfCached = "\(name); detail=only-if-cached"
}

extension HTTPResponse {
    /// A copy with our `Cache-Status` member `value` (replacing one an inner cache added).
    func adding(_ value: String) -> HTTPResponse {
        var headers = headers
        headers.remove(CacheStatus.fieldName)
        headers.add(CacheStatus.fieldName, value)
        return withHeaders(headers)
    }
}
