/// What a ``ProxyAuthenticator`` is asked about: which proxy refused, for which origin, and its challenges.
///
/// Its ``description`` never shows a password.
public struct ProxyAuthenticationChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The proxy that refused, with the credentials it was sent (`nil` when none were): the configured ones, or
    /// ones remembered from an earlier answer.
    public let proxy: ProxyServer
    /// The origin the request was for, as `host:port`.
    public let origin: String
    /// Whether the proxy refused a `CONNECT` (an `https` origin) rather than a forwarded plain `http` request.
    public let isTunnel: Bool
    /// The proxy's status: `407`, or `401` to a `CONNECT`.
    public let statusCode: Int
    /// The proxy's challenges in order, as it sent them (`Basic realm="corp"`): its `Proxy-Authenticate` fields,
    /// or the `WWW-Authenticate` ones of a `401` to a `CONNECT`. Only `Basic` can be answered with
    /// ``ProxyCredentials``.
    public let challenges: [String]

    /// A challenge, as the client makes it (public for tests of an authenticator).
    public init(proxy: ProxyServer, origin: String, isTunnel: Bool, statusCode: Int, challenges: [String]) {
        self.proxy = proxy
        self.origin = origin
        self.isTunnel = isTunnel
        self.statusCode = statusCode
        self.challenges = challenges
    }

    /// The status, the proxy (its password redacted), the origin and the challenges.
    public var description: String {
        let what = isTunnel ? "CONNECT \(origin)" : "the request for \(origin)"
        return "\(statusCode) from \(proxy) to \(what): \(challenges)"
    }
}
