extension URLSessionHTTPClient {
    /// The transport's own settings (the `URLSessionConfiguration` is passed separately).
    ///
    /// ```swift
    /// let transport = URLSessionHTTPClient(
    ///     configuration: .init(
    ///         redirectPolicy: .followAtMost(3),
    ///         defaultTimeout: .seconds(10),
    ///         totalDeadline: .seconds(30),
    ///         maxResponseBytes: 10 * 1024 * 1024
    ///     )
    /// )
    /// ```
    public struct Configuration: Sendable {
        /// Which redirects are followed. Default: ``RedirectPolicy/follow``.
        public var redirectPolicy: RedirectPolicy
        /// How long one request may take, from sending to the last byte of the body, when its
        /// ``HTTPRequest/timeout`` is `nil`. `nil` means no limit of ours (URLSession's idle timeout of the session
        /// configuration still applies). Default: 60 seconds. Running out ends the call with
        /// ``APIClientError/timeout``.
        public var defaultTimeout: Duration?
        /// The most any request may take, redirects and the whole body included, even when its
        /// ``HTTPRequest/timeout`` asks for more. `nil` (the default) sets no such cap. Running out ends the call
        /// with ``APIClientError/timeout``.
        public var totalDeadline: Duration?
        /// The largest response body held in memory, in bytes (after gzip/deflate/br decoding); a bigger one ends the
        /// call with `APIClientError.networkError(NetworkFailure(kind: .responseTooLarge))` as soon as it is known,
        /// without reading the rest. Default: 64 MiB, as `NativeHTTPClient`'s; `nil` sets no limit. Bodies going
        /// to a file are bounded by ``maxFileResponseBytes`` instead, and streamed bodies by nothing (back-pressure
        /// keeps their memory bounded).
        public var maxResponseBytes: Int?
        /// The largest response body written to a file (``HTTPRequest/responseDestination``), or `nil` (the default)
        /// for no limit: such a body is never held in memory.
        public var maxFileResponseBytes: Int?
        /// The most bytes of a response body going to a file (``HTTPRequest/responseDestination``) that one
        /// URLSession task fetches; a larger body that the server offers in byte ranges, with a strong validator,
        /// comes as a series of `Range` requests guarded by `If-Range`, each a new task. It bounds memory:
        /// FoundationNetworking keeps about 30 MiB of bookkeeping per GiB received until a task ends. `nil` fetches
        /// every body in one task. Default: 64 MiB.
        public var downloadSegmentBytes: Int64?

        /// Creates settings.
        public init(
            redirectPolicy: RedirectPolicy = .follow,
            defaultTimeout: Duration? = .seconds(60),
            totalDeadline: Duration? = nil,
            maxResponseBytes: Int? = 64 << 20,
            maxFileResponseBytes: Int? = nil,
            downloadSegmentBytes: Int64? = 64 << 20
        ) {
            self.redirectPolicy = redirectPolicy
            self.defaultTimeout = defaultTimeout
            self.totalDeadline = totalDeadline
            self.maxResponseBytes = maxResponseBytes
            self.maxFileResponseBytes = maxFileResponseBytes
            self.downloadSegmentBytes = downloadSegmentBytes
        }

        /// The time limit for `request`: its own timeout (or ``defaultTimeout``), capped by ``totalDeadline``.
        func timeLimit(for request: HTTPRequest) -> Duration? {
            let own = request.timeout ?? defaultTimeout
            switch (own, totalDeadline) {
            case (let own?, let total?): return min(own, total)
            case (let own?, nil): return own
            case (nil, let total?): return total
            case (nil, nil): return nil
            }
        }
    }
}
