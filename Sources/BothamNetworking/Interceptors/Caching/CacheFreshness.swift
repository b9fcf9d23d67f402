import Foundation

/// The age and freshness of a stored response at one instant (RFC 9111 §4.2).
struct CacheFreshness: Sendable, Hashable {
    /// §4.2.1's `freshness_lifetime`, seconds.
    let lifetime: Double
    /// §4.2.3's `current_age`, seconds.
    let age: Double
    /// Whether ``lifetime`` is a §4.2.2 heuristic (no explicit expiration time).
    let isHeuristic: Bool

    /// The longest heuristic freshness lifetime: a day.
    static let heuristicCap: Double = 86_400
    /// The fraction of the time since `Last-Modified` used as a heuristic lifetime (§4.2.2's typical 10%).
    static let heuristicFraction = 0.1
    /// The status codes §15.1 of RFC 9110 defines as heuristically cacheable.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether the response is fresh (§4.2: `freshness_lifetime > current_age`).
    var isFresh: Bool { lifetime > age }
    /// How long ago it became stale (0 while fresh).
    var staleness: Double { max(0, age - lifetime) }
    /// Seconds of freshness left (negative when stale).
    var remaining: Double { lifetime - age }

    /// The largest delta-seconds a cache keeps (§1.2.2: a greater value is read as 2^31).
    static let maximumDeltaSeconds: Double = 2_147_483_648

    /// The freshness at `now` of the stored response read as `head`: its lifetime, and §4.2.3's `current_age` =
    /// `corrected_initial_age` + `resident_time`.
    init(_ head: CachedResponseHead, now: Date) {
        lifetime = head.lifetime
        isHeuristic = head.isHeuristic
        age = head.correctedInitialAge + max(0, now.timeIntervalSince1970 - head.responseTime)
    }
}
