/// What to do with a stored response that matches a request (RFC 9111 §4, §4.2, §5.2; RFC 5861), for a private cache.
enum CacheDecision: Sendable, Equatable {
    /// Serve it: it is fresh and the request accepts its age.
    case fresh
    /// Serve it stale: the request's `max-stale` accepts it.
    case staleAccepted
    /// Serve it stale and revalidate it in the background (`stale-while-revalidate`).
    case staleWhileRevalidate
    /// Send a conditional request first; `forward` is `Cache-Status`'s reason (`stale` or `request`).
    case validate(forward: String)

    /// The decision for `entry`, whose freshness now is `freshness`, and a request with directives `request`.
    ///
    /// - The request's `no-cache` (§5.2.1.4), `max-age` (§5.2.1.1: an older response is not acceptable) and
    ///   `min-fresh` (§5.2.1.3) ask for validation; the response's unqualified `no-cache` (§5.2.2.4) always does.
    /// - A fresh response is served (§4.2).
    /// - A stale one is validated when it has `must-revalidate` (§5.2.2.2: it overrides `max-stale` and RFC 5861's
    ///   extensions); otherwise the request's `max-stale` (§5.2.1.2) or the response's `stale-while-revalidate`
    ///   (RFC 5861 §3) may let it be served. `proxy-revalidate` and `s-maxage` apply to shared caches only and are
    ///   ignored (§5.2.2.8, §5.2.2.10).
    /// - A request directive whose delta-seconds cannot be read (`max-age=soon`, two different `min-fresh` values)
    ///   is taken at its strictest: `max-age` and `min-fresh` ask for validation, `max-stale` accepts nothing stale
    ///   (only a bare `max-stale` accepts any staleness).
    init(entry: CacheControl, freshness: CacheFreshness, request: CacheControl) {
        if request.has("no-cache") {
            self = .validate(forward: "request")
            return
        }
        if entry.isUnqualified("no-cache") {
            self = .validate(forward: "stale")
            return
        }
        if !Self.isMet(request.deltaSeconds("max-age"), by: { freshness.age <= $0 }) {
            self = .validate(forward: "request")
            return
        }
        if !Self.isMet(request.deltaSeconds("min-fresh"), by: { freshness.remaining >= $0 }) {
            self = .validate(forward: "request")
            return
        }
        if freshness.isFresh {
            self = .fresh
            return
        }
        guard !entry.has("must-revalidate") else {
            self = .validate(forward: "stale")
            return
        }
        let maxStale: Double? =
            switch request.deltaSeconds("max-stale") {
            case .bare: .infinity
            case .value(let seconds): seconds
            case .absent, .invalid: nil
            }
        if let maxStale, freshness.staleness <= maxStale {
            self = .staleAccepted
            return
        }
        if let window = entry.seconds("stale-while-revalidate"), freshness.staleness <= window {
            self = .staleWhileRevalidate
            return
        }
        self = .validate(forward: "stale")
    }

    /// Whether the stored response meets a request's limit `directive`: always when it is absent, by `check` of its
    /// value, never when it cannot be read.
    private static func isMet(_ directive: CacheControl.DeltaSeconds, by check: (Double) -> Bool) -> Bool {
        switch directive {
        case .absent: true
        case .value(let limit): check(limit)
        case .bare, .invalid: false
        }
    }

    /// Whether a stored response may be served when the server failed (RFC 5861 §4: within the response's or the
    /// request's `stale-if-error` window), never when it has `must-revalidate` or an unqualified `no-cache`
    /// (§4.2.4: such a response must not be served stale).
    static func servesStaleOnError(entry: CacheControl, freshness: CacheFreshness, request: CacheControl) -> Bool {
        guard !entry.has("must-revalidate"), !entry.isUnqualified("no-cache"), !request.has("no-cache") else {
            return false
        }
        let window = max(entry.seconds("stale-if-error") ?? -1, request.seconds("stale-if-error") ?? -1)
        return window >= 0 && freshness.staleness <= window
    }
}
