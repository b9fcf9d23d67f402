import BothamHTTP2Wire
import BothamNetworking

extension NativeHTTPClient {
    /// The settings of a ``NativeHTTPClient``; every value has a sensible default.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.limits.idleTimeout = .milliseconds(800)
    /// configuration.limits.maxResponseBytes = 2 << 20
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The most connections open at once to one scheme, host and port (8). Further requests wait.
        ///
        /// It is the client's total, whatever its ``eventLoops``: the cap is split across the loops (each loop's pool
        /// may open its share, the first loops taking the remainder: 8 over 3 loops is 3, 3 and 2), and a client uses
        /// no more loops than this cap. A call waits for a connection of its own loop, so calls that all run on one
        /// loop get that loop's share.
        public var maxConnectionsPerHost = 8
        /// How many event loops the client's calls run on (``NativeHTTPClient/EventLoopCount/automatic`` by default).
        /// Concurrent calls spread over them and one call at a time stays on the first; spread the calling tasks over
        /// ``NativeHTTPClient/taskExecutors`` to use them all without a thread switch. Each loop costs a thread for
        /// the life of the process, shared with every client that asks for as many loops or more.
        public var eventLoops = EventLoopCount.automatic
        /// How long an unused keep-alive connection stays in the pool (60 s).
        public var idleConnectionTimeout = Duration.seconds(60)
        /// The time and size limits, with the same meaning as on `URLSessionHTTPClient` (`TransportLimits` says
        /// what each bounds). Every one of them is enforced by the event loop's timers and the parser, sub-second
        /// values included.
        public var limits = TransportLimits()
        /// The largest status line plus header fields accepted (64 KiB); trailers have the same limit. (URLSession
        /// has a fixed limit of its own, libcurl's 100 KiB, which is why this one is not a `TransportLimits` field.)
        public var maxHeaderBytes = 64 << 10
        /// Whether to ask for and decode `gzip` and `deflate` bodies (on).
        public var decompression = true
        /// Which redirects are followed (`RedirectPolicy.follow`: up to 20), each hop built by
        /// `RedirectHop`.
        public var redirectPolicy = RedirectPolicy.follow
        /// How HTTPS servers are verified.
        public var tls = TLSConfiguration()
        /// Which versions of HTTP the client speaks (``NativeHTTPClient/HTTPVersionPolicy/http1Only``, the
        /// default): set ``NativeHTTPClient/HTTPVersionPolicy/preferHTTP2`` to let TLS servers pick HTTP/2.
        public var httpVersion = HTTPVersionPolicy.http1Only
        /// How HTTP/2 connections are watched: SETTINGS acknowledged in time, optional keep-alive PINGs.
        public var http2 = HTTP2Options()
        /// Who turns host names into addresses (``SystemNameResolver``: `getaddrinfo`, off the event loop). IP
        /// literals are never looked up.
        package var nameResolver: any NameResolving = SystemNameResolver()
        /// How long a resolved name's addresses are reused by new connections (30 s): `getaddrinfo` reports no time
        /// to live, so this is the client's choice, short enough to follow DNS changes and long enough to spare a
        /// lookup per connection. `.zero` turns the cache off. The cache is the client's own; a name whose every
        /// address fails to connect is dropped from it at once.
        public var dnsCacheTTL = Duration.seconds(30)
        /// How long a failed lookup is remembered (1 s), so that a burst of requests to a missing name asks once;
        /// `.zero` remembers none.
        public var dnsFailureCacheTTL = Duration.seconds(1)
        /// The most names the DNS cache keeps (256); a full cache drops the entry that expires first.
        public var dnsCacheSize = 256
        /// Happy Eyeballs v2 (RFC 8305): how long a connection attempt runs alone before the next address (the
        /// other family first) is tried alongside it (250 ms, the RFC's recommendation; at least 10 ms, the RFC's
        /// minimum). The first attempt to connect wins and the others are closed; `limits.connectTimeout` bounds
        /// the whole connect, TLS included.
        public var connectionAttemptDelay = Duration.milliseconds(250)
        /// How long one connection attempt may take before it counts as failed (`nil`, the default: only
        /// `limits.connectTimeout` bounds it). When every address has failed, the error
        /// (`cannotConnect`, carrying a ``NativeTransportError``) names each address tried and why it failed.
        public var connectionAttemptTimeout: Duration?
        /// Which requests go through a proxy (``ProxyConfiguration/none``, the default: none, whatever the
        /// environment says). Set it explicitly, or to `try .fromEnvironment()` to read `http_proxy`, `https_proxy`,
        /// `all_proxy` and `no_proxy` once, by curl's rules. Plain `http` requests go to an HTTP proxy in absolute
        /// form, `https` ones through a `CONNECT` tunnel with TLS and pins end to end with the origin; SOCKS5 proxies
        /// (`socks5://`, `socks5h://`) carry both. A proxy's `407` fails the call with
        /// `APIClientError.NetworkFailure.Kind.proxyAuthenticationRequired`, unless ``ProxyConfiguration/authenticator`` answers
        /// it with credentials to try once.
        public var proxy = ProxyConfiguration.none

        /// Creates the default configuration.
        public init() {}
    }
}

extension NativeHTTPClient.Configuration {
    /// What connections need of these settings: a new DNS cache in front of ``nameResolver`` (one per client),
    /// the Happy Eyeballs timing in nanoseconds, and how HTTP/2 is spoken.
    func makeConnectSettings() -> ConnectSettings {
        let cache = DNSCache(
            resolver: nameResolver,
            settings: DNSCache.Settings(
                ttl: MonotonicClock.nanoseconds(dnsCacheTTL),
                failureTTL: MonotonicClock.nanoseconds(dnsFailureCacheTTL),
                maxEntries: max(1, dnsCacheSize)
            )
        )
        var settings = ConnectSettings(
            dnsCache: cache,
            attemptDelay: max(10_000_000, MonotonicClock.nanoseconds(connectionAttemptDelay)),
            attemptTimeout: connectionAttemptTimeout.map { max(1_000_000, MonotonicClock.nanoseconds($0)) }
        )
        settings.cleartextHTTP2 = httpVersion.cleartextHTTP2
        settings.http2PingInterval = http2.keepAlivePingInterval.map { max(1_000_000, MonotonicClock.nanoseconds($0)) }
        settings.http2PingTimeout = max(1_000_000, MonotonicClock.nanoseconds(http2.pingTimeout))
        settings.http2SettingsTimeout = max(1_000_000, MonotonicClock.nanoseconds(http2.settingsTimeout))
        settings.http2NeverIndexed = http2.neverIndexed
        settings.http2MaxConnections = max(1, http2.maxConnectionsPerOrigin)
        // The response head limit is HPACK's header list limit over HTTP/2.
        settings.http2.maxHeaderListSize = max(1024, maxHeaderBytes)
        return settings
    }
}
