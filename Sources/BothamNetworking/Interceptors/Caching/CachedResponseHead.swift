import Foundation

/// What every use of a stored response reads, worked out once when the entry is made (stored, read from disk, or
/// updated by a `304`) rather than on each hit: its fields as ``HTTPHeaders``, its `Cache-Control` directives, the
/// inputs of RFC 9111 §4.2 that do not depend on the time of use (the freshness lifetime and the corrected initial
/// age), and the fields a response served from it without validation starts from.
struct CachedResponseHead: Sendable {
    /// The stored fields, in order.
    let headers: HTTPHeaders
    /// The directives of the stored `Cache-Control` fields.
    let control: CacheControl
    /// §4.2.1's `freshness_lifetime`, seconds.
    let lifetime: Double
    /// Whether ``lifetime`` is a §4.2.2 heuristic.
    let isHeuristic: Bool
    /// §4.2.3's `corrected_initial_age`, seconds.
    let correctedInitialAge: Double
    /// §4.2.3's `response_time`, seconds since 1970.
    let responseTime: Double
    /// The fields of a response served without validation, before its `Age` and `Cache-Status`: the stored ones
    /// without `Age` and without those a qualified `no-cache` names (§5.2.2.4).
    let servedHeaders: HTTPHeaders
    /// The URL the response came from.
    let responseURL: URL?

    /// The `Age` field name.
    static let age = HTTPFieldName("Age")
    static let date = HTTPFieldName("Date")
    static let expires = HTTPFieldName("Expires")
    static let lastModified = HTTPFieldName("Last-Modified")

    /// Reads `head` once.
    init(_ head: CacheEntry.Head) {
        let headers = head.headers
        let control = CacheControl(headers)
        self.headers = headers
        self.control = control
        responseTime = head.responseTime
        responseURL = head.responseURL.flatMap { URL(string: $0) }
        // Dates are read as received at the response time (RFC 9110 §5.6.7: a two-digit year is at most 50 years
        // ahead of it).
        let received = Date(timeIntervalSince1970: head.responseTime)
        let dateValue = headers[Self.date].flatMap { HTTPDate.parse($0, receivedAt: received) }?.timeIntervalSince1970
        let freshness = Self.freshnessLifetime(
            headers: headers, control: control, statusCode: head.statusCode, dateValue: dateValue, received: received)
        lifetime = freshness.lifetime
        isHeuristic = freshness.isHeuristic
        correctedInitialAge = Self.correctedInitialAge(
            headers: headers, dateValue: dateValue, requestTime: head.requestTime, responseTime: head.responseTime)
        var served = headers
        for name in control.fieldNames("no-cache") { served.remove(name) }
        served.remove(Self.age)
        servedHeaders = served
    }

    /// §4.2.1's `freshness_lifetime`, in its order (`s-maxage` is for shared caches only), and whether it is a
    /// §4.2.2 heuristic.
    private static func freshnessLifetime(
        headers: HTTPHeaders, control: CacheControl, statusCode: Int, dateValue: Double?, received: Date
    ) -> (lifetime: Double, isHeuristic: Bool) {
        let responseTime = received.timeIntervalSince1970
        if let maxAge = control.seconds("max-age") { return (maxAge, false) }
        if control.isInvalidSeconds("max-age") { return (0, false) }
        let expires = headers.values(for: Self.expires)
        if !expires.isEmpty {
            // An invalid date, `0` included, means already expired (§5.3); so do `Expires` fields that disagree
            // (§4.2.1 allows reading them as stale, as `CacheControl` reads a repeated `max-age`).
            let dates = Set(expires.map { HTTPDate.parse($0, receivedAt: received)?.timeIntervalSince1970 })
            guard dates.count == 1, let expiresValue = dates.first ?? nil else { return (0, false) }
            return (max(0, expiresValue - (dateValue ?? responseTime)), false)
        }
        if CacheFreshness.heuristicallyCacheable.contains(statusCode),
            let modified = headers[Self.lastModified].flatMap({ HTTPDate.parse($0, receivedAt: received) })?
                .timeIntervalSince1970
        {
            // §4.2.2: only without explicit freshness; 10% of the time since last modified, capped.
            let sinceModified = max(0, (dateValue ?? responseTime) - modified)
            return (min(CacheFreshness.heuristicCap, sinceModified * CacheFreshness.heuristicFraction), true)
        }
        return (0, false)
    }

    /// §4.2.3's `corrected_initial_age`: the larger of the apparent age and the `Age` field plus the response delay.
    private static func correctedInitialAge(
        headers: HTTPHeaders, dateValue: Double?, requestTime: Double, responseTime: Double
    ) -> Double {
        let ageValue = Self.ageValue(headers) ?? 0
        let apparentAge = max(0, responseTime - (dateValue ?? responseTime))
        let responseDelay = max(0, responseTime - requestTime)
        return max(apparentAge, ageValue + responseDelay)
    }

    /// §5.1's `Age`: the first member of the list its fields make (a list where a single value belongs is read as its
    /// first member, over one field or several); `nil` when that member is not a non-negative integer (the field is
    /// then ignored). A value too large to represent is 2^31 (§1.2.2), so that no age is infinite.
    static func ageValue(_ headers: HTTPHeaders) -> Double? {
        let members = headers.values(for: age).lazy.flatMap { $0.utf8.split(separator: UInt8(ascii: ",")) }
            .map { HTTPFieldList.trimmingWhitespace($0) }
        return members.first { !$0.isEmpty }.flatMap(CacheControl.parseDeltaSeconds)
    }
}
