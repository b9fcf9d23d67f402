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
