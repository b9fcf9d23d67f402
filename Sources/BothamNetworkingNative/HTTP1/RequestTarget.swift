import BothamNetworking
import Foundation

/// The origin and the HTTP/1.1 request target (RFC 9112 §3.2.1, origin-form) of a request's URL.
extension Origin {
    /// The origin and request target of `url`, read from its ASCII text in one scan when the authority is a plain
    /// `host[:port]` (no user info, no IPv6 literal); otherwise through Foundation's URL parsing, which costs several
    /// microseconds.
    ///
    /// - Throws: ``APIClientError/unsupportedURLScheme(_:)`` or ``APIClientError/invalidRequest(reason:)``.
    static func parse(_ url: URL) throws(APIClientError) -> (origin: Origin, target: String) {
        if let fast = fastParse(url.absoluteString) { return fast }
        return (try Origin(url: url), requestTarget(of: url))
    }

    private static func fastParse(_ text: String) -> (origin: Origin, target: String)? {
        let bytes = Array(text.utf8)
        let scheme: String
        let authorityStart: Int
        if bytes.starts(with: "http://".utf8) {
            (scheme, authorityStart) = ("http", 7)
        } else if bytes.starts(with: "https://".utf8) {
            (scheme, authorityStart) = ("https", 8)
        } else {
            return nil
        }
        var index = authorityStart
        var colon: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "%") || byte >= 0x80 {
                return nil
            }
            if byte == UInt8(ascii: ":") { colon = index }
            index += 1
        }
        let hostEnd = colon ?? index
        guard hostEnd > authorityStart else { return nil }
        var port = defaultPort(for: scheme)
        if let colon {
            let digits = bytes[(colon + 1)..<index]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            port = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            guard (1...65535).contains(port) else { return nil }
        }
        let host = String(decoding: bytes[authorityStart..<hostEnd], as: UTF8.self).lowercased()
        let targetEnd = bytes[index...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        var target = String(decoding: bytes[index..<targetEnd], as: UTF8.self)
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        return (Origin(scheme: scheme, host: host, port: port), target)
    }

    /// The request target of `url`: its percent-encoded path (or `/`) and query.
    static func requestTarget(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        return target
    }
}
