import Foundation

/// Scheme, host and port (RFC 6454, default ports filled in): what the redirect rules compare before they carry
/// credentials to the next hop, and the unit of connection reuse of the native transport (hence `package` access).
///
/// A Unix domain socket origin (`http+unix://%2Fvar%2Frun%2Fdocker.sock`, the form AsyncHTTPClient uses) has the
/// scheme `http+unix` or `https+unix`, the decoded socket path as its host (case kept) and the scheme's default port:
/// two URLs share it exactly when they name the same socket file.
package struct Origin: Hashable, Sendable {
    /// `http`, `https`, `http+unix` or `https+unix`.
    package let scheme: String
    /// The lower-cased host name or IP literal, without brackets; for a Unix socket origin, the socket path.
    package let host: String
    /// The port, explicit or the scheme's default.
    package let port: Int

    /// An origin from parts that are already normalised: `scheme` is `http` or `https` (or a Unix socket scheme),
    /// `host` is lower-cased and without brackets (or the socket path), `port` is in `1...65535`.
    package init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of `url`.
    ///
    /// - Throws: ``APIClientError/unsupportedURLScheme(_:)`` when the scheme is not `http`, `https`, `http+unix` or
    ///   `https+unix`, or ``APIClientError/invalidRequest(reason:)`` when the URL has no host (socket path) or its
    ///   port is out of range.
    package init(url: URL) throws(APIClientError) {
        let scheme = (url.scheme ?? "").lowercased()
        if Self.unixSocketSchemes.contains(scheme) {
            // The host is the percent-decoded socket path, its case kept: file names are case-sensitive.
            guard let path = url.host, !path.isEmpty else {
                throw .invalidRequest(reason: "the \(scheme) URL names no socket path")
            }
            self.init(scheme: scheme, host: path, port: Self.defaultPort(for: scheme))
            return
        }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedURLScheme(scheme) }
        var host = (url.host ?? "").lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidRequest(reason: "the URL has no host") }
        let port = url.port ?? Self.defaultPort(for: scheme)
        guard (1...65535).contains(port) else { throw .invalidRequest(reason: "the URL's port is out of range") }
        self.init(scheme: scheme, host: host, port: port)
    }

    /// The origin of `url`, or `nil` when it has none to share (not `http`, `https` or a Unix socket URL, no host, a
    /// port out of range).
    package init?(_ url: URL) {
        guard let origin = try? Origin(url: url) else { return nil }
        self = origin
    }

    /// The schemes of a Unix domain socket origin: HTTP and HTTPS over the socket named by the URL's host.
    package static let unixSocketSchemes: Set<String> = ["http+unix", "https+unix"]

    /// Whether connections to this origin use TLS.
    package var isTLS: Bool { scheme == "https" || scheme == "https+unix" }

    /// The path of the Unix domain socket this origin's connections go to, or `nil` for a TCP origin.
    package var unixSocketPath: String? { Self.unixSocketSchemes.contains(scheme) ? host : nil }

    /// The scheme on the wire (HTTP/2's `:scheme`): `http` or `https`, also over a Unix socket.
    package var wireScheme: String { isTLS ? "https" : "http" }

    /// The origin TLS names (SNI, certificate verification, pins): this one, or `https://localhost` over a Unix
    /// socket (the name a local daemon's certificate carries; a socket has no host name of its own).
    package var tlsOrigin: Origin {
        unixSocketPath == nil ? self : Origin(scheme: "https", host: "localhost", port: 443)
    }

    /// Whether the host is an IPv4 or IPv6 literal (no SNI, IP-address verification).
    package var hostIsIPAddress: Bool { Self.isIPAddress(host) }

    /// Whether `host` (lower-cased, without brackets) is an IPv4 or IPv6 literal.
    package static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        return host.split(separator: ".").count == 4 && host.utf8.allSatisfy { $0 == 46 || ($0 >= 48 && $0 <= 57) }
    }

    /// The `Host` field: brackets around IPv6 literals, the port when it is not the default; `localhost` over a
    /// Unix socket (what `curl --unix-socket` and Docker's clients send).
    package var hostHeader: String {
        if unixSocketPath != nil { return "localhost" }
        let name = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return port == Self.defaultPort(for: scheme) ? name : "\(name):\(port)"
    }

    /// The default port of `http` (80) and `https` (443); a Unix socket scheme has its TCP twin's.
    package static func defaultPort(for scheme: String) -> Int {
        scheme == "https" || scheme == "https+unix" ? 443 : 80
    }
}
