extension CacheInterceptor {
    /// Where a response handed out by a ``CacheInterceptor`` came from, in the spirit of RFC 9211's `Cache-Status`.
    ///
    /// The interceptor adds a `Cache-Status` field to every response it returns (read it back with
    /// ``HTTPResponse/cacheStatus``), so logging, metrics and tests see it:
    ///
    /// | Status | `Cache-Status` field |
    /// |---|---|
    /// | ``hit`` | `BothamNetworking; hit; ttl=42` (`; detail=heuristic` when the freshness was guessed, §4.2.2) |
    /// | ``staleHit`` | `BothamNetworking; hit; ttl=-3; detail=stale-while-revalidate` (or `stale-if-error`, `max-stale`) |
    /// | ``revalidated`` | `BothamNetworking; fwd=stale; fwd-status=304` (`fwd=request` when the request asked for it) |
    /// | ``miss`` | `BothamNetworking; fwd=uri-miss; fwd-status=200; stored` (`fwd` is `uri-miss`, `vary-miss`, `stale`, `request` or `bypass`; `stored` only when it was) |
    ///
    /// A `504` answering an `only-if-cached` request that nothing stored could satisfy is a ``miss`` with
    /// `detail=only-if-cached`.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// A fresh stored response, served without contacting the server.
        case hit
        /// A stale stored response, served without waiting for the server: `stale-while-revalidate`, `stale-if-error`
        /// (the server failed) or the request's `max-stale`.
        case staleHit = "stale-hit"
        /// A stored response the server confirmed with `304 Not Modified`: the stored body with the updated headers.
        case revalidated
        /// The server's response (nothing usable was stored, the request bypassed the cache, or the server sent a new
        /// full response).
        case miss

        /// The cache's name in `Cache-Status` fields.
        package static let cacheName = "BothamNetworking"

        /// The `Cache-Status` field name.
        package static let fieldName = HTTPFieldName("Cache-Status")
    }
}

/// The status of a cached response, as the cache's own code names it.
typealias CacheStatus = CacheInterceptor.Status

extension CacheInterceptor.Status: CustomStringConvertible {
    /// `hit`, `stale-hit`, `revalidated` or `miss`.
    public var description: String { rawValue }
}

extension HTTPResponse {
    /// Where this response came from when a ``CacheInterceptor`` handed it out (read from its `Cache-Status`
    /// field, our member of it), or `nil` when no cache did.
    public var cacheStatus: CacheInterceptor.Status? {
        for value in headers.values(for: CacheStatus.fieldName) {
            for member in value.split(separator: ",") {
                let parameters = member.split(separator: ";").map {
                    String(HTTPFieldList.trimmingWhitespace($0)).lowercased()
                }
                guard let name = parameters.first, name == CacheStatus.cacheName.lowercased() else { continue }
                if parameters.contains("hit") {
                    let ttl = parameters.first { $0.hasPrefix("ttl=") }.flatMap { Int($0.dropFirst(4)) } ?? 0
                    return ttl < 0 ? .staleHit : .hit
                }
                return parameters.contains("fwd-status=304") ? .revalidated : .miss
            }
        }
        return nil
    }
}
