import BothamNetworking

extension NativeHTTPClient {
    /// The settings of a ``NativeHTTPClient``; every value has a sensible default.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.requestTimeout = .milliseconds(800)
    /// configuration.maxResponseBytes = 2 << 20
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The most connections open at once to one scheme, host and port (8). Further requests wait.
        public var maxConnectionsPerHost = 8
        /// How long an unused keep-alive connection stays in the pool (60 s).
        public var idleConnectionTimeout = Duration.seconds(60)
        /// How long connecting (TCP and the TLS handshake) may take (10 s).
        public var connectTimeout = Duration.seconds(10)
        /// How long an exchange may go without progress (bytes sent or received) when the request has no `timeout`
        /// of its own (60 s). A request's own `timeout` bounds its whole attempt instead, redirects and body
        /// included, as `URLSessionHTTPClient` does. Sub-second values work.
        public var requestTimeout = Duration.seconds(60)
        /// A deadline for the whole call, redirects included, or `nil` for none.
        public var totalTimeout: Duration?
        /// The largest body kept in memory, on the wire and after decompression (64 MiB); more fails the call with
        /// `NetworkFailure.Kind.responseTooLarge`.
        public var maxResponseBytes = 64 << 20
        /// The largest body written to a file (a request's `HTTPRequest.responseDestination`),
        /// or `nil` (the default) for no limit: such a body is never held in memory.
        public var maxFileResponseBytes: Int?
        /// The largest status line plus header fields accepted (64 KiB); trailers have the same limit.
        public var maxHeaderBytes = 64 << 10
        /// Whether to ask for and decode `gzip` and `deflate` bodies (on).
        public var decompression = true
        /// Which redirects are followed (`RedirectPolicy.follow`: up to 20), each hop built by
        /// `RedirectRules`.
        public var redirectPolicy = RedirectPolicy.follow
        /// How HTTPS servers are verified.
        public var tls = NativeTLSConfiguration()

        /// Creates the default configuration.
        public init() {}
    }
}
