import BothamNetworking

/// Answers an HTTP proxy's demand for credentials: given the proxy's challenges, it returns the credentials to try
/// once, or `nil` to give up. Set it on ``ProxyConfiguration/authenticator``.
///
/// ```swift
/// var proxies = ProxyConfiguration.all(try ProxyServer(url: "http://proxy.corp:3128"))
/// proxies.authenticator = ProxyAuthenticator { challenges in
///     // Each challenge has isProxy == true and origin "proxy.corp:3128".
///     challenges.contains { $0.scheme.lowercased() == "basic" }
///         ? BasicAuthCredentials(username: "me", password: "from the keychain")
///         : nil
/// }
/// ```
///
/// The challenges are the `AuthenticationChallenge`s of the proxy's `Proxy-Authenticate` fields (or of the
/// `WWW-Authenticate` ones of a `401` to a `CONNECT`), in order, each with `AuthenticationChallenge.isProxy` set
/// and the proxy's `host:port` as its `AuthenticationChallenge.origin`; empty when the proxy sent none. Only
/// `Basic` can be answered.
///
/// It is asked when an HTTP proxy answers `407 Proxy Authentication Required` to a `CONNECT` (an `https` request)
/// or to a plain `http` request forwarded in absolute form, and when it answers `401` to a `CONNECT` (only the proxy
/// can answer one). The call is then tried once more with the credentials returned (`Proxy-Authorization: Basic`,
/// to the proxy only, never to the origin); if the proxy refuses those too, or the authenticator returns `nil`, the
/// call fails with `APIClientError.NetworkFailure.Kind.proxyAuthenticationRequired` carrying a ``NativeProxyError``: at most one
/// answered retry per request sent (each redirect hop is one), so a wrong answer never loops.
///
/// Credentials that a proxy accepted are remembered by the client for that proxy and sent up front on later calls
/// (so a kept-alive tunnel is reused and the authenticator is not asked again); if the proxy later refuses them,
/// the authenticator is asked again. SOCKS5 proxies are not challenged this way: give their credentials in the
/// ``ProxyServer``.
///
/// The closure runs on the calling task, never on the client's event loop, so it may take its time (read a
/// keychain, ask a user); it may be called concurrently by concurrent calls. Two authenticators are equal only when
/// one is a copy of the other.
public struct ProxyAuthenticator: Sendable, Hashable {
    private final class Box: Sendable {
        let answer: @Sendable ([AuthenticationChallenge]) async -> BasicAuthCredentials?
        init(_ answer: @escaping @Sendable ([AuthenticationChallenge]) async -> BasicAuthCredentials?) {
            self.answer = answer
        }
    }

    private let box: Box

    /// An authenticator that answers a proxy's challenges with what `answer` returns (`nil`: give up).
    public init(_ answer: @escaping @Sendable ([AuthenticationChallenge]) async -> BasicAuthCredentials?) {
        box = Box(answer)
    }

    /// The credentials to try for `challenges`, or `nil` to give up.
    package func credentials(for challenges: [AuthenticationChallenge]) async -> BasicAuthCredentials? {
        await box.answer(challenges)
    }

    /// Whether `lhs` and `rhs` are the same authenticator (copies of one value).
    public static func == (lhs: ProxyAuthenticator, rhs: ProxyAuthenticator) -> Bool { lhs.box === rhs.box }

    /// Hashes the authenticator's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}
