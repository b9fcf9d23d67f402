import Foundation

/// RFC 6265bis §5.1.3 and §5.1.4: domain matching, path matching and the default path.
enum CookieMatching {
    /// What cookie matching needs of a request URL, derived once per request rather than once per cookie: the host
    /// (``Origin``'s normalisation, lower-cased and without the brackets of an IPv6 literal, plus no trailing dot),
    /// whether it is an IP address, the path as sent, and whether the scheme is `https`.
    struct Target {
        let host: String
        let hostIsIPAddress: Bool
        let path: String
        let isSecure: Bool

        /// The target of `url`; `nil` when it has no ``Origin`` (not `http` or `https`, no host) or its host is
        /// only dots.
        init?(_ url: URL) {
            guard let origin = Origin(url) else { return nil }
            var host = Substring(origin.host)
            while host.hasSuffix(".") { host.removeLast() }
            guard !host.isEmpty else { return nil }
            self.host = String(host)
            hostIsIPAddress = Origin.isIPAddress(self.host)
            path = CookieMatching.requestPath(of: url)
            isSecure = origin.isTLS
        }
    }

    /// §5.1.3: `host` equals `domain`, or ends with `.` + `domain` and is not an IP address.
    static func domain(_ host: String, matches domain: String) -> Bool {
        Self.domain(host, hostIsIPAddress: Origin.isIPAddress(host), matches: domain)
    }

    /// §5.1.3 for a host whose IP-address test is already known.
    static func domain(_ host: String, hostIsIPAddress: Bool, matches domain: String) -> Bool {
        if host == domain { return true }
        // Compared byte for byte (hosts and domains are lower-cased), without building `"." + domain`.
        let suffixLength = domain.utf8.count
        guard !hostIsIPAddress, host.utf8.count > suffixLength,
            host.utf8.suffix(suffixLength).elementsEqual(domain.utf8)
        else { return false }
        return host.utf8.dropLast(suffixLength).last == UInt8(ascii: ".")
    }

    /// §5.1.4: the paths are equal, or `cookiePath` is a prefix of `requestPath` ending at a `/`.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// The URL's path as sent (percent-encoding kept), `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// §5.1.4's default path of a request path: up to (not including) its last `/`, or `/`.
    static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }
}
