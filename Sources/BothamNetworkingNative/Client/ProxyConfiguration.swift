import BothamNetworking
import Foundation

/// Which requests of a ``NativeHTTPClient`` go through a proxy, and which proxy: set on
/// ``NativeHTTPClient/Configuration/proxy`` explicitly, or read from the environment once with
/// ``fromEnvironment(_:)``. The default, ``none``, connects directly to every origin.
///
/// ```swift
/// var configuration = NativeHTTPClient.Configuration()
/// configuration.proxy = try .fromEnvironment()  // http_proxy, https_proxy, all_proxy, no_proxy, as curl reads them
/// // or explicitly:
/// configuration.proxy = ProxyConfiguration(
///     httpsProxy: try ProxyServer(url: "http://user:secret@proxy.corp:3128"),
///     noProxy: NoProxyList("localhost,.internal.corp"))
/// ```
///
/// Connections are pooled per origin *and* proxy (credentials included): one made through a proxy is never reused
/// for a direct request or for another proxy.
///
/// A `407` from an HTTP proxy fails the call with `APIClientError.NetworkFailure.Kind.proxyAuthenticationRequired`, unless
/// ``authenticator`` answers it with credentials to try once.
public struct ProxyConfiguration: Sendable, Hashable {
    /// The proxy for `http://` URLs, if any.
    public var httpProxy: ProxyServer?
    /// The proxy for `https://` URLs, if any. An HTTP proxy is asked for a `CONNECT` tunnel, a SOCKS5 proxy for a
    /// connection; either way TLS, its certificate checks and the pins run with the origin, end to end.
    public var httpsProxy: ProxyServer?
    /// The hosts reached directly whatever the proxies above say.
    public var noProxy: NoProxyList
    /// Who answers an HTTP proxy's `407` (or `401` to a `CONNECT`) with credentials to try once (`nil`, the
    /// default: the call fails with `proxyAuthenticationRequired`). ``ProxyAuthenticator`` says when it is asked.
    public var authenticator: ProxyAuthenticator?

    /// A configuration with the given proxies.
    public init(
        httpProxy: ProxyServer? = nil, httpsProxy: ProxyServer? = nil, noProxy: NoProxyList = NoProxyList(),
        authenticator: ProxyAuthenticator? = nil
    ) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
        self.authenticator = authenticator
    }

    /// No proxy: every request connects directly (the default).
    public static let none = ProxyConfiguration()

    /// One proxy for `http` and `https` alike, except for the hosts of `noProxy`.
    public static func all(_ proxy: ProxyServer, noProxy: NoProxyList = NoProxyList()) -> ProxyConfiguration {
        ProxyConfiguration(httpProxy: proxy, httpsProxy: proxy, noProxy: noProxy)
    }

    /// The configuration the environment describes, by curl's rules, read now (a snapshot: later changes to the
    /// environment do not affect it).
    ///
    /// - `http://` URLs use `http_proxy`. The upper-case `HTTP_PROXY` is **ignored**, as curl ignores it: under CGI
    ///   a request's `Proxy:` header arrives as the variable `HTTP_PROXY`, so honouring it would let any caller of
    ///   a CGI script route the script's own outgoing requests through a proxy of their choice ("httpoxy",
    ///   CVE-2016-5385 and siblings).
    /// - `https://` URLs use `https_proxy`, else `HTTPS_PROXY`.
    /// - Without those, `all_proxy`, else `ALL_PROXY`, serves both.
    /// - `no_proxy`, else `NO_PROXY`, lists the hosts reached directly (``NoProxyList``).
    /// - Lower case wins whenever both spellings are set; a variable set to the empty string counts as unset.
    ///
    /// - Parameter environment: the variables to read (the process's, by default).
    /// - Throws: ``ProxyURLError`` when a variable that applies holds a proxy URL that cannot be used (an
    ///   `https://` or `socks4://` proxy, no host): the configuration fails at once rather than silently connecting
    ///   directly.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ProxyURLError) -> ProxyConfiguration {
        func value(_ names: String...) -> String? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return value
                }
            }
            return nil
        }
        func proxy(_ text: String?) throws(ProxyURLError) -> ProxyServer? {
            try text.map { text throws(ProxyURLError) in try ProxyServer(url: text) }
        }
        let all = value("all_proxy", "ALL_PROXY")
        return ProxyConfiguration(
            httpProxy: try proxy(value("http_proxy") ?? all),
            httpsProxy: try proxy(value("https_proxy", "HTTPS_PROXY") ?? all),
            noProxy: NoProxyList(value("no_proxy", "NO_PROXY") ?? "")
        )
    }

    /// The proxy a request to `origin` goes through, or `nil` to connect directly.
    func proxy(for origin: Origin) -> ProxyServer? {
        let proxy = origin.isTLS ? httpsProxy : httpProxy
        guard let proxy, !noProxy.matches(host: origin.host) else { return nil }
        return proxy
    }
}
