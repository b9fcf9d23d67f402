extension URLSessionHTTPClient {
    /// The transport's own settings (the `URLSessionConfiguration` is passed separately).
    ///
    /// ```swift
    /// let transport = URLSessionHTTPClient(
    ///     configuration: .init(
    ///         redirectPolicy: .followAtMost(3),
    ///         limits: TransportLimits(attemptTimeout: .seconds(10), maxAttemptTimeout: .seconds(30))
    ///     )
    /// )
    /// ```
    public struct Configuration: Sendable {
        /// Which redirects are followed. Default: ``RedirectPolicy/follow``.
        public var redirectPolicy: RedirectPolicy
        /// The time and size limits, with the same meaning as on `NativeHTTPClient` (``TransportLimits`` says what
        /// each bounds, and that ``TransportLimits/connectTimeout`` is not applied here). They replace the session
        /// configuration's `timeoutIntervalForRequest` whenever an idle or attempt limit is set.
        public var limits: TransportLimits
        /// The most bytes of a response body going to a file (``HTTPRequest/responseDestination``) that one
        /// URLSession task fetches; a larger body that the server offers in byte ranges, with a strong validator,
        /// comes as a series of `Range` requests guarded by `If-Range`, each a new task. It bounds memory:
        /// FoundationNetworking keeps about 30 MiB of bookkeeping per GiB received until a task ends. `nil` fetches
        /// every body in one task. Default: 64 MiB.
        ///
        /// Segments are never used for a request that may be signed, because a signature over its fields would not
        /// cover the `Range` a segment adds: one that carries `Authorization` or `Proxy-Authorization`, or one an
        /// `HTTPInterceptor` (in `interceptors` or `networkInterceptors`) changed after preparation, is fetched in
        /// one task, exactly as the innermost interceptor saw it. Its memory then grows with the body as described
        /// above.
        public var downloadSegmentBytes: Int64?

        /// Creates settings.
        public init(
            redirectPolicy: RedirectPolicy = .follow,
            limits: TransportLimits = TransportLimits(),
            downloadSegmentBytes: Int64? = 64 << 20
        ) {
            self.redirectPolicy = redirectPolicy
            self.limits = limits
            self.downloadSegmentBytes = downloadSegmentBytes
        }
    }
}
