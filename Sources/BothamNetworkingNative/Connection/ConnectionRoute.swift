import BothamNetworking

/// Where a connection goes: the origin, and the proxy in between if any. The unit of connection reuse, so that a
/// connection through one proxy (or with one set of proxy credentials) is never reused for a direct request or for
/// another proxy.
struct ConnectionRoute: Hashable, Sendable {
    /// The origin the requests are for (TLS, SNI and pins are its own).
    let origin: Origin
    /// The proxy the socket connects to, if any.
    let proxy: ProxyServer?
    /// Whether the connection is for a WebSocket handshake: HTTP/1.1 only (no `h2` in ALPN, no cleartext HTTP/2),
    /// and kept apart from the connections of other calls, since a `101` hands it over for good.
    var upgradesToWebSocket = false

    /// A route straight to `origin`, or through `proxy`.
    init(origin: Origin, proxy: ProxyServer? = nil) {
        self.origin = origin
        self.proxy = proxy
    }

    /// The host the socket connects to: the proxy's, or the origin's.
    var connectHost: String { proxy?.host ?? origin.host }
    /// The port the socket connects to.
    var connectPort: Int { proxy?.port ?? origin.port }

    /// Whether requests go to an HTTP proxy in absolute form (plain `http` through an HTTP proxy): no tunnel. A
    /// WebSocket always tunnels (`CONNECT`), since a forwarding proxy need not pass an upgrade on.
    var forwardsToHTTPProxy: Bool { proxy?.kind == .http && !origin.isTLS && !upgradesToWebSocket }

    /// Whether the connection needs a tunnel (`CONNECT` or SOCKS5) before it carries requests.
    var needsTunnel: Bool { proxy != nil && !forwardsToHTTPProxy }
}
