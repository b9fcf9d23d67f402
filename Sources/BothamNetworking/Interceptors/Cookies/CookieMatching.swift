import Foundation

/// RFC 6265bis §5.1.3 and §5.1.4: domain matching, path matching and the default path.
enum CookieMatching {
    /// The URL's host, lowercased, without the brackets of an IPv6 literal or a trailing dot; `nil` without one.
    static func canonicalHost(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    /// Whether `host` is an IPv4 or IPv6 address (which only ever matches itself).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.allSatisfy(\.isASCIIDigit) }
    }

    /// §5.1.3: `host` equals `domain`, or ends with `.` + `domain` and is not an IP address.
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        return !isIPAddress(host) && host.hasSuffix("." + domain)
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

    /// §5.1.4's default path: the request path up to (not including) its last `/`, or `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
