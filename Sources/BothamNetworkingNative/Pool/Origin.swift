import BothamNetworking
import Foundation

/// Scheme, host and port: the unit of connection reuse.
struct Origin: Hashable, Sendable {
    /// `http` or `https`.
    let scheme: String
    /// The lower-cased host name or IP literal, without brackets.
    let host: String
    /// The port, explicit or the scheme's default.
    let port: Int

    /// Whether connections to this origin use TLS.
    var isTLS: Bool { scheme == "https" }

    /// Whether the host is an IPv4 or IPv6 literal (no SNI, IP-address verification).
    var hostIsIPAddress: Bool {
        if host.contains(":") { return true }
        return host.split(separator: ".").count == 4 && host.utf8.allSatisfy { $0 == 46 || ($0 >= 48 && $0 <= 57) }
    }

    /// The `Host` field: brackets around IPv6 literals, the port when it is not the default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == Self.defaultPort(for: scheme) ? name : "\(name):\(port)"
    }

    /// The default port of `http` (80) and `https` (443).
    static func defaultPort(for scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// The origin of `url`.
    ///
    /// - Throws: ``APIClientError/unsupportedURLScheme(_:)`` or ``APIClientError/invalidRequest(reason:)``.
    init(url: URL) throws(APIClientError) {
        let scheme = (url.scheme ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else { throw .unsupportedURLScheme(scheme) }
        var host = (url.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidRequest(reason: "the URL has no host") }
        let port = url.port ?? Self.defaultPort(for: scheme)
        guard (1...65535).contains(port) else { throw .invalidRequest(reason: "the URL's port is out of range") }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The request target of `url`: its percent-encoded path (or `/`) and query.
    static func requestTarget(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        return target
    }
}
