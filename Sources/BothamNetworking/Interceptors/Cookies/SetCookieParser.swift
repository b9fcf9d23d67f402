import Foundation

/// RFC 6265bis §5.6 (parsing a `Set-Cookie` field) and the checks of §5.7 (storage model) that need only the field
/// and the URL that sent it; what needs the jar's other cookies is ``CookieJar``'s.
enum SetCookieParser {
    /// The most bytes of name and value together, and of one attribute value (§5.6, §5.6.7).
    static let maxNameValueBytes = 4096
    static let maxAttributeValueBytes = 1024
    /// `Max-Age` and `Expires` are capped at 400 days (§5.6.1, §5.6.2).
    static let maxLifetime: TimeInterval = 400 * 86_400

    /// The cookie `field` sets when received from `url` at `now`, or `nil` when it is to be ignored.
    static func parse(
        _ field: String, from url: URL, now: Date, publicSuffixes: PublicSuffixList
    ) -> Cookie? {
        guard let target = CookieMatching.Target(url) else { return nil }
        return parse(field, from: target, now: now, publicSuffixes: publicSuffixes)
    }

    /// ``parse(_:from:now:publicSuffixes:)`` for a URL whose host, path and scheme are already derived.
    static func parse(
        _ field: String, from target: CookieMatching.Target, now: Date, publicSuffixes: PublicSuffixList
    ) -> Cookie? {
        guard !containsControl(field) else { return nil }
        let host = target.host
        let parts = field.split(separator: ";", omittingEmptySubsequences: false)
        let pair = parts.first ?? ""
        let name: Substring
        let value: Substring
        if let equals = pair.firstIndex(of: "=") {
            name = trimmed(pair[..<equals])
            value = trimmed(pair[pair.index(after: equals)...])
        } else {
            name = ""
            value = trimmed(pair)
        }
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= maxNameValueBytes else {
            return nil
        }
        if name.isEmpty, hasPrefix(value, "__Secure-") || hasPrefix(value, "__Host-") { return nil }

        var attributes = Attributes()
        for part in parts.dropFirst() { attributes.read(part, now: now) }

        if attributes.secure && !target.isSecure { return nil }

        var domain = host
        var hostOnly = true
        if let attribute = attributes.domain {
            if publicSuffixes.isPublicSuffix(attribute) {
                guard attribute == host else { return nil }  // a public suffix may set a host-only cookie only
            } else if target.hostIsIPAddress {
                guard attribute == host else { return nil }
            } else {
                guard CookieMatching.domain(host, hostIsIPAddress: false, matches: attribute) else { return nil }
                domain = attribute
                hostOnly = false
            }
        }
        let path = attributes.path ?? CookieMatching.defaultPath(of: target.path)

        if hasPrefix(name, "__Secure-"), !attributes.secure { return nil }
        if hasPrefix(name, "__Host-"), !attributes.secure || attributes.domain != nil || path != "/" { return nil }

        return Cookie(
            name: String(name), value: String(value), domain: domain, isHostOnly: hostOnly, path: path,
            isSecure: attributes.secure, isHTTPOnly: attributes.httpOnly, sameSite: attributes.sameSite,
            expiresAt: attributes.maxAge ?? attributes.expires, createdAt: now)
    }

    /// The attributes of one field; for each, the last one wins (§5.7 step 3's "last attribute").
    private struct Attributes {
        var expires: Date?
        var maxAge: Date?
        var domain: String?
        var path: String?
        var secure = false
        var httpOnly = false
        var sameSite: Cookie.SameSite?

        mutating func read(_ part: Substring, now: Date) {
            let name: Substring
            let value: Substring
            if let equals = part.firstIndex(of: "=") {
                name = SetCookieParser.trimmed(part[..<equals])
                value = SetCookieParser.trimmed(part[part.index(after: equals)...])
            } else {
                name = SetCookieParser.trimmed(part)
                value = ""
            }
            guard value.utf8.count <= SetCookieParser.maxAttributeValueBytes else { return }
            switch name.lowercased() {
            case "expires":
                if let date = HTTPDate.parse(String(value)) {
                    expires = min(date, now.addingTimeInterval(SetCookieParser.maxLifetime))
                }
            case "max-age":
                readMaxAge(value, now: now)
            case "domain":
                var domain = value.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                while domain.hasSuffix(".") { domain.removeLast() }
                if !domain.isEmpty { self.domain = domain }
            case "path":
                path = value.hasPrefix("/") ? String(value) : nil
            case "secure":
                secure = true
            case "httponly":
                httpOnly = true
            case "samesite":
                sameSite = Cookie.SameSite.allCases.first { $0.rawValue.lowercased() == value.lowercased() }
            default:
                break
            }
        }

        /// §5.6.2: digits with an optional `-`; zero or less expires at once.
        private mutating func readMaxAge(_ value: Substring, now: Date) {
            let digits = value.hasPrefix("-") ? value.dropFirst() : value
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return }
            if value.hasPrefix("-") || digits.allSatisfy({ $0 == "0" }) {
                maxAge = Date.distantPast
                return
            }
            let seconds = Double(digits) ?? SetCookieParser.maxLifetime
            maxAge = now.addingTimeInterval(min(seconds, SetCookieParser.maxLifetime))
        }
    }

    /// §5.6 step 1: a field with a control character other than tab is ignored.
    private static func containsControl(_ field: String) -> Bool {
        field.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }

    fileprivate static func trimmed(_ text: Substring) -> Substring {
        HTTPFieldList.trimmingWhitespace(text)
    }

    /// The prefix check of §5.7 steps 19–20, ignoring case.
    private static func hasPrefix(_ text: Substring, _ prefix: String) -> Bool {
        text.lowercased().hasPrefix(prefix.lowercased())
    }
}
