import BothamNetworking

/// A proxy that ``NativeHTTPClient`` went through refused or failed the request.
///
/// It travels as the `underlying` error of a `APIClientError.NetworkFailure`: of kind `proxyAuthenticationRequired` when the
/// proxy wants (other) credentials, `cannotConnect` otherwise.
///
/// ```swift
/// if case .networkError(let failure) = error, failure.kind == .proxyAuthenticationRequired,
///     let proxyError = failure.underlying as? NativeProxyError
/// {
///     print(proxyError.proxy, proxyError.challenges.map(\.scheme))  // http://user:<redacted>@proxy:3128 ["Basic"]
/// }
/// ```
public struct NativeProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of a ``NativeProxyError``.
    public enum Code: Sendable, Hashable {
        /// The proxy wants credentials, or rejected the ones sent: an HTTP proxy answered
        /// `407 Proxy Authentication Required` (or `401` to a `CONNECT`, which only the proxy can answer), or a SOCKS5
        /// proxy refused the username and password (RFC 1929) or
        /// accepted none of the methods offered.
        case authenticationRequired
        /// The proxy would not or could not reach the origin: a `CONNECT` answered with another status than 2xx, or
        /// a SOCKS5 reply other than "succeeded" (RFC 1928 §6).
        case refused
        /// The proxy's bytes are not the protocol it was asked to speak.
        case malformedReply
    }

    /// The category.
    public let code: Code
    /// The proxy, as ``ProxyServer/description`` writes it (its password redacted).
    public let proxy: String
    /// The status of an HTTP proxy's answer (`407`, `403`, `502`…), if it was one.
    public let statusCode: Int?
    /// The proxy's challenges (`AuthenticationChallenge.isProxy`, with the proxy's `host:port` as their
    /// `AuthenticationChallenge.origin`): those of the `Proxy-Authenticate` fields of a `407`
    /// (`Basic realm="corp"`), or of the `WWW-Authenticate` ones of a `401` to `CONNECT`, in order; empty otherwise.
    public let challenges: [AuthenticationChallenge]
    /// What happened, for people.
    public let reason: String

    /// Creates an error.
    package init(
        code: Code, proxy: String, statusCode: Int? = nil, challenges: [AuthenticationChallenge] = [], reason: String
    ) {
        self.code = code
        self.proxy = proxy
        self.statusCode = statusCode
        self.challenges = challenges
        self.reason = reason
    }

    /// The code, the proxy and the reason.
    public var description: String { "\(code) by the proxy \(proxy): \(reason)" }
}
