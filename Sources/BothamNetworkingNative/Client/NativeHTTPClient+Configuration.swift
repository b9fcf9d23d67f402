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
        public var maxConnectionsPerHost = 8
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
        public var tls = NativeTLSConfiguration()

        /// Creates the default configuration.
        public init() {}
    }
}
