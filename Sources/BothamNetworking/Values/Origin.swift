import Foundation

/// Scheme, host and port (RFC 6454, default ports filled in): what the redirect rules compare before they carry
/// credentials to the next hop, and the unit of connection reuse of the native transport (hence `package` access).
package struct Origin: Hashable, Sendable {
    /// `http` or `https`.
    package let scheme: String
    /// The lower-cased host name or IP literal, without brackets.
    package let host: String
    /// The port, explicit or the scheme's default.
    package let port: Int

    /// An origin from parts that are already normalised: `scheme` is `http` or `https`, `host` is lower-cased and
    /// without brackets, `port` is in `1...65535`.
    package init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of `url`.
    ///
    /// - Throws: ``APIClientError/unsupportedURLScheme(_:)`` when the scheme is not `http` or `https`, or
    ///   ``APIClientError/invalidRequest(reason:)`` when the URL has no host or its port is out of range.
    package init(url: URL) throws(APIClientError) {
        let scheme = (url.scheme ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else { throw .unsupportedURLScheme(scheme) }
        var host = (url.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidRequest(reason: "the URL has no host") }
        let port = url.port ?? Self.defaultPort(for: scheme)
        guard (1...65535).contains(port) else { throw .invalidRequest(reason: "the URL's port is out of range") }
        self.init(scheme: scheme, host: host, port: port)
    }

    /// The origin of `url`, or `nil` when it has none to share (not `http` or `https`, no host, a port out of range).
    package init?(_ url: URL) {
        guard let origin = try? Origin(url: url) else { return nil }
        self = origin
    }

    /// Whether connections to this origin use TLS.
    package var isTLS: Bool { scheme == "https" }

    /// Whether the host is an IPv4 or IPv6 literal (no SNI, IP-address verification).
    package var hostIsIPAddress: Bool { Self.isIPAddress(host) }

    /// Whether `host` (lower-cased, without brackets) is an IPv4 or IPv6 literal.
    package static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        return host.split(separator: ".").count == 4 && host.utf8.allSatisfy { $0 == 46 || ($0 >= 48 && $0 <= 57) }
    }

    /// The `Host` field: brackets around IPv6 literals, the port when it is not the default.
    package var hostHeader: String {
        let name = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return port == Self.defaultPort(for: scheme) ? name : "\(name):\(port)"
    }

    /// The default port of `http` (80) and `https` (443).
    package static func defaultPort(for scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}
