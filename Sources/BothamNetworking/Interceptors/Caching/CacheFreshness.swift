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

    /// The freshness of the response whose head is `head`, at `now`.
    init(head: CacheEntry.Head, now: Date) {
        let headers = head.headers
        let control = CacheControl(headers)
        let responseTime = head.responseTime
        let dateValue = headers["Date"].flatMap(HTTPDate.parse)?.timeIntervalSince1970
        // §4.2.1, in its order (s-maxage is for shared caches only).
        if let maxAge = control.seconds("max-age") {
            lifetime = maxAge
            isHeuristic = false
        } else if control.isInvalidSeconds("max-age") {
            lifetime = 0
            isHeuristic = false
        } else if let expiresText = headers["Expires"] {
            // An invalid date, `0` included, means already expired (§5.3).
            if let expires = HTTPDate.parse(expiresText)?.timeIntervalSince1970 {
                lifetime = max(0, expires - (dateValue ?? responseTime))
            } else {
                lifetime = 0
            }
            isHeuristic = false
        } else if Self.heuristicallyCacheable.contains(head.statusCode),
            let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse)?.timeIntervalSince1970
        {
            // §4.2.2: only without explicit freshness; 10% of the time since last modified, capped.
            let sinceModified = max(0, (dateValue ?? responseTime) - lastModified)
            lifetime = min(Self.heuristicCap, sinceModified * Self.heuristicFraction)
            isHeuristic = true
        } else {
            lifetime = 0
            isHeuristic = false
        }
        age = Self.currentAge(
            headers: headers, dateValue: dateValue, requestTime: head.requestTime, responseTime: responseTime,
            now: now.timeIntervalSince1970)
    }

    /// The largest delta-seconds a cache keeps (§1.2.2: a greater value is read as 2^31).
    static let maximumDeltaSeconds: Double = 2_147_483_648

    /// §4.2.3's `current_age`.
    static func currentAge(
        headers: HTTPHeaders, dateValue: Double?, requestTime: Double, responseTime: Double, now: Double
    ) -> Double {
        // An `Age` that is not a non-negative integer is ignored (§5.1); one too large to represent reads as 2^31
        // (§1.2.2), so hundreds of digits never become an infinite age.
        let ageValue =
            headers["Age"].flatMap { text -> Double? in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                return min(Double(trimmed) ?? CacheFreshness.maximumDeltaSeconds, CacheFreshness.maximumDeltaSeconds)
            } ?? 0
        let apparentAge = max(0, responseTime - (dateValue ?? responseTime))
        let responseDelay = max(0, responseTime - requestTime)
        let correctedAgeValue = ageValue + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now - responseTime)
        return correctedInitialAge + residentTime
    }
}
