import Foundation

extension CookieJar {
    /// One cookie as a ``CookieJar`` stores it: what a `Set-Cookie` field said, after RFC 6265bis's storage rules.
    ///
    /// Cookies come from the `Set-Cookie` fields of responses; read them with ``CookieJar/allCookies``.
    public struct Cookie: Sendable, Hashable, Codable {
        /// The `SameSite` attribute: parsed and stored; an API client sends no cross-site requests, so it changes
        /// nothing about which cookies are sent.
        package enum SameSite: String, Sendable, Hashable, Codable, CaseIterable {
            /// `SameSite=Strict`.
            case strict = "Strict"
            /// `SameSite=Lax`.
            case lax = "Lax"
            /// `SameSite=None`.
            case none = "None"
        }

        /// The cookie's name (may be empty, as RFC 6265bis allows `Set-Cookie: value`).
        public let name: String
        /// The cookie's value, exactly as the server sent it (quotes included).
        public let value: String
        /// The lowercased host (host-only cookies) or the `Domain` attribute without its leading dot.
        public let domain: String
        /// Whether only ``domain`` itself gets the cookie (no `Domain` attribute), not its subdomains.
        package let isHostOnly: Bool
        /// The path the cookie applies to (the `Path` attribute, or the default path of the URL that set it).
        public let path: String
        /// Whether the cookie is sent over `https` only.
        package let isSecure: Bool
        /// Whether the server marked it `HttpOnly` (stored; every cookie of an API client is used over HTTP).
        package let isHTTPOnly: Bool
        /// The `SameSite` attribute, or `nil` when there was none (or an unknown value).
        package let sameSite: SameSite?
        /// When the cookie expires (from `Max-Age`, or else `Expires`), or `nil` for a session cookie.
        package let expiresAt: Date?
        /// When the cookie was first stored (kept when the server replaces it): orders cookies of equal path length.
        package let createdAt: Date

        /// Creates a cookie; the jar's parser is the usual source of one.
        package init(
            name: String,
            value: String,
            domain: String,
            isHostOnly: Bool = true,
            path: String = "/",
            isSecure: Bool = false,
            isHTTPOnly: Bool = false,
            sameSite: SameSite? = nil,
            expiresAt: Date? = nil,
            createdAt: Date = Date()
        ) {
            self.name = name
            self.value = value
            self.domain = domain.lowercased()
            self.isHostOnly = isHostOnly
            self.path = path
            self.isSecure = isSecure
            self.isHTTPOnly = isHTTPOnly
            self.sameSite = sameSite
            self.expiresAt = expiresAt
            self.createdAt = createdAt
        }

        /// Whether the cookie outlives the process: it has an expiry date (session cookies are never written to a file).
        package var isPersistent: Bool { expiresAt != nil }

        /// Whether the cookie has expired at `date`.
        package func isExpired(at date: Date) -> Bool {
            guard let expiresAt else { return false }
            return expiresAt <= date
        }

        /// Whether this cookie is sent with a request to `url` (its expiry aside): the host domain-matches (or equals,
        /// for a host-only cookie), the path path-matches, and a secure cookie goes over `https` only.
        package func matches(_ url: URL) -> Bool {
            guard let target = CookieMatching.Target(url) else { return false }
            return matches(target)
        }

        /// ``matches(_:)`` for a request whose host, path and scheme are already derived (once for every cookie).
        func matches(_ target: CookieMatching.Target) -> Bool {
            if isSecure && !target.isSecure { return false }
            let hostMatches =
                isHostOnly
                ? target.host == domain
                : CookieMatching.domain(target.host, hostIsIPAddress: target.hostIsIPAddress, matches: domain)
            return hostMatches && CookieMatching.path(target.path, matches: path)
        }

        /// The cookie's identity in a jar: a new cookie with the same name, domain and path replaces it.
        var key: Key { Key(name: name, domain: domain, path: path) }

        /// A copy created at `date` (a replaced cookie keeps its first creation time).
        func created(at date: Date) -> Cookie {
            Cookie(
                name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, isSecure: isSecure,
                isHTTPOnly: isHTTPOnly, sameSite: sameSite, expiresAt: expiresAt, createdAt: date)
        }

        struct Key: Hashable {
            let name: String
            let domain: String
            let path: String
        }
    }
}

/// The jar's cookie, named as the jar's files name it.
typealias Cookie = CookieJar.Cookie
