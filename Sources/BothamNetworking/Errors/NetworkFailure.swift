extension APIClientError {
    /// A network failure and its cause.
    public struct NetworkFailure: Sendable, CustomStringConvertible {
        /// What went wrong, in categories a retry policy can act on.
        public enum Kind: Sendable, Hashable {
            /// Nobody listens on the host and port.
            case cannotConnect
            /// The connection broke before the response was complete.
            case connectionLost
            /// The host name could not be resolved.
            case cannotFindHost
            /// There is no network.
            case notConnected
            /// The TLS handshake or certificate validation failed.
            case secureConnectionFailed
            /// The server's bytes are not valid HTTP.
            case badServerResponse
            /// Too many redirects, or a redirect loop.
            case tooManyRedirects
            /// The response exceeded a configured size limit.
            case responseTooLarge
            /// A proxy wants credentials, or refused the ones it was given: an HTTP proxy's
            /// `407 Proxy Authentication Required` (for a forwarded request or a `CONNECT`), or a SOCKS5 proxy that
            /// rejected the username and password. Not an HTTP response of the origin, so it is an error rather than a
            /// response (no retry policy retries it by default: the same credentials would fail again). Native
            /// transport: the `underlying` error is a `NativeProxyError` with the proxy (password redacted) and its
            /// `Proxy-Authenticate` challenges.
            case proxyAuthenticationRequired
            /// Anything else.
            case other
        }

        /// The category.
        public let kind: Kind
        /// The transport's own error, for diagnostics.
        public let underlying: (any Error)?

        /// Creates a failure.
        public init(kind: Kind, underlying: (any Error)? = nil) {
            self.kind = kind
            self.underlying = underlying
        }

        /// The category and the underlying error.
        public var description: String {
            if let underlying { return "\(kind) (\(underlying))" }
            return "\(kind)"
        }
    }
}
