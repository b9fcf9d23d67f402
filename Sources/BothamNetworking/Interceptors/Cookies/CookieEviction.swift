import Foundation

/// RFC 6265bis §5.7's last step: over a limit, expired cookies go first, then the oldest.
enum CookieEviction {
    static func evict(_ cookies: inout [Cookie.Key: Cookie], limits: CookieJar.Limits, at date: Date) {
        let perDomain = Dictionary(grouping: cookies.values, by: \.domain)
        if perDomain.values.contains(where: { $0.count > limits.perDomain }) || cookies.count > limits.total {
            for (key, cookie) in cookies where cookie.isExpired(at: date) { cookies.removeValue(forKey: key) }
        }
        for (_, group) in Dictionary(grouping: cookies.values, by: \.domain) where group.count > limits.perDomain {
            for cookie in oldestFirst(group).prefix(group.count - limits.perDomain) {
                cookies.removeValue(forKey: cookie.key)
            }
        }
        if cookies.count > limits.total {
            for cookie in oldestFirst(Array(cookies.values)).prefix(cookies.count - limits.total) {
                cookies.removeValue(forKey: cookie.key)
            }
        }
    }

    private static func oldestFirst(_ cookies: [Cookie]) -> [Cookie] {
        cookies.sorted { $0.createdAt < $1.createdAt }
    }
}
