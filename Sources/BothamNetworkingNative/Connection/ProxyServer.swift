import BothamNetworking
import Foundation

/// A proxy that ``NativeHTTPClient`` sends requests through (``ProxyConfiguration`` says which requests).
///
/// Written as curl writes it: `http://proxy.corp:3128`, `socks5h://user:secret@127.0.0.1:1080`, or a bare
/// `proxy.corp:3128` (taken as `http://`). Without a port the proxy is on 1080, curl's default for every proxy kind.
///
/// ```swift
/// let proxy = try ProxyServer(url: "http://user:secret@proxy.corp:3128")
/// print(proxy)  // http://user:<redacted>@proxy.corp:3128
/// ```
///
/// Its ``description`` never shows the password, so a proxy can be logged or put in an error as it is.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How the client talks to a proxy.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An HTTP proxy (`http://`): a plain `http` request is sent to it in absolute form
        /// (`GET http://host/path HTTP/1.1`), an `https` request goes through a `CONNECT` tunnel, and TLS runs
        /// end to end with the origin inside it.
        case http
        /// A SOCKS5 proxy (RFC 1928, `socks5://`) that is given the origin's **address**: the client resolves the
        /// name itself (with its resolver and DNS cache), as curl does for `socks5://`.
        case socks5
        /// A SOCKS5 proxy (`socks5h://`) that is given the origin's **name** and resolves it: the client looks up
        /// nothing but the proxy, as curl does for `socks5h://` (use it when only the proxy can resolve names).
        case socks5h
    }

    /// How the client talks to it.
    public var kind: Kind
    /// The proxy's host name or IP literal (lower-cased, no brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// What the proxy is told to let the client through: `Proxy-Authorization: Basic` to an HTTP proxy (on the
    /// forwarded request or the `CONNECT`), RFC 1929 username/password to a SOCKS5 proxy. Never sent to an origin.
    public var credentials: BasicAuthCredentials?

    /// A proxy from its parts; `host` is lower-cased and loses any brackets.
    public init(kind: Kind, host: String, port: Int, credentials: BasicAuthCredentials? = nil) {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.kind = kind
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// A proxy from a URL as curl reads `http_proxy`: `[scheme://][user[:password]@]host[:port][/]`.
    ///
    /// The scheme is `http` (the default), `socks5` or `socks5h`; user and password are percent-decoded; the port
    /// defaults to 1080. A trailing `/` is allowed, any other path is not.
    ///
    /// - Throws: ``ProxyURLError`` for another scheme (`https://` proxies, `socks4://`), no host, a bad port or
    ///   a path. Its message never shows the password.
    public init(url text: String) throws(ProxyURLError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme) else {
            throw ProxyURLError(reason: "not a URL: \(Self.redacted(trimmed))")
        }
        let scheme = (components.scheme ?? "").lowercased()
        guard let kind = Kind(rawValue: scheme) else {
            throw ProxyURLError(reason: "unsupported proxy scheme \"\(scheme)\" (http, socks5 and socks5h are)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ProxyURLError(reason: "the proxy URL has no host: \(Self.redacted(trimmed))")
        }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else {
            throw ProxyURLError(reason: "the proxy's port \(port) is out of range")
        }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
            components.percentEncodedQuery == nil
        else {
            throw ProxyURLError(reason: "a proxy URL has no path or query: \(Self.redacted(trimmed))")
        }
        var credentials: BasicAuthCredentials?
        if let user = components.user, !user.isEmpty {
            credentials = BasicAuthCredentials(username: user, password: components.password ?? "")
        }
        self.init(kind: kind, host: host, port: port, credentials: credentials)
    }

    /// `scheme://[user:<redacted>@]host:port`: the password is never shown.
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let user = credentials.map { "\($0.username):<redacted>@" } ?? ""
        return "\(kind.rawValue)://\(user)\(name):\(port)"
    }

    /// `text` with the password of its user info (between `:` and `@`) replaced.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        guard let colon = text[start..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "<redacted>" + String(text[at...])
    }
}

extension ProxyServer {
    /// The proxy as `host:port` (an IPv6 literal in brackets): what its challenges say made them.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
