import Foundation

/// A jar's cookies by identity, with what storing needs kept up to date as they change: how many cookies each domain
/// has (so a limit is checked without grouping the jar) and how many changes touched a persistent cookie (so the
/// jar's file is written only when its contents change).
struct CookieStore {
    /// The cookies, by name, domain and path.
    private(set) var cookies: [Cookie.Key: Cookie] = [:]
    private var countByDomain: [String: Int] = [:]
    /// Grows with every change that added, replaced or removed a persistent cookie (and with ``removeAll()``): the
    /// generation of the persistent set, which orders the jar's writes of its file.
    private(set) var persistentGeneration = 0

    /// The number of cookies.
    var count: Int { cookies.count }

    /// The number of cookies whose ``Cookie/domain`` is `domain`.
    func count(of domain: String) -> Int { countByDomain[domain] ?? 0 }

    /// The persistent cookies (what the jar's file holds).
    var persistentCookies: [Cookie] { cookies.values.filter(\.isPersistent) }

    /// Adds `cookie`, or replaces the one with its name, domain and path.
    mutating func set(_ cookie: Cookie) {
        let old = cookies.updateValue(cookie, forKey: cookie.key)
        if old == nil { countByDomain[cookie.domain, default: 0] += 1 }
        if old != cookie && (cookie.isPersistent || old?.isPersistent == true) { persistentGeneration += 1 }
    }

    /// Removes the cookie with `key`, returning it.
    @discardableResult
    mutating func remove(_ key: Cookie.Key) -> Cookie? {
        guard let old = cookies.removeValue(forKey: key) else { return nil }
        let remaining = count(of: old.domain) - 1
        countByDomain[old.domain] = remaining > 0 ? remaining : nil
        if old.isPersistent { persistentGeneration += 1 }
        return old
    }

    /// Removes every cookie; counts as a change of the persistent set even when there was none, so the file is
    /// written (empty) all the same.
    mutating func removeAll() {
        cookies.removeAll()
        countByDomain.removeAll()
        persistentGeneration += 1
    }

    /// RFC 6265bis §5.7's last step, after storing cookies of `domains`: when one of them has more than
    /// ``CookieJar/Limits/perDomain`` cookies or the jar more than ``CookieJar/Limits/total``, expired cookies go
    /// first, then the oldest. Only a stored cookie's domain can have gone over its limit, so no other is counted;
    /// under the limits this costs a lookup per domain.
    mutating func evict(afterStoringIn domains: Set<String>, limits: CookieJar.Limits, at date: Date) {
        let overfull = domains.filter { count(of: $0) > limits.perDomain }
        guard !overfull.isEmpty || count > limits.total else { return }
        for key in cookies.filter({ $0.value.isExpired(at: date) }).keys { remove(key) }
        for domain in overfull where count(of: domain) > limits.perDomain {
            let group = cookies.values.filter { $0.domain == domain }
            for cookie in Self.oldestFirst(group).prefix(group.count - limits.perDomain) { remove(cookie.key) }
        }
        if count > limits.total {
            for cookie in Self.oldestFirst(Array(cookies.values)).prefix(count - limits.total) { remove(cookie.key) }
        }
    }

    private static func oldestFirst(_ cookies: [Cookie]) -> [Cookie] {
        cookies.sorted { $0.createdAt < $1.createdAt }
    }
}
