/// Which redirects a transport follows: the one policy type of ``URLSessionHTTPClient`` and `NativeHTTPClient`.
///
/// ```swift
/// let transport = URLSessionHTTPClient(configuration: .init(redirectPolicy: .followAtMost(5)))
/// let raw = URLSessionHTTPClient(configuration: .init(redirectPolicy: .doNotFollow))  // 3xx comes back as is
/// ```
///
/// Whatever the policy, each hop follows the redirect rules both transports share: a redirect that changes the
/// scheme, host or port never carries `Authorization`, `Proxy-Authorization`, `Cookie` or the policy's
/// `sensitiveFields` (from then on, for the rest of the call), a 307 or 308 keeps its method and body, and a 301, 302 or 303 after a `POST` becomes a `GET` without a body, as browsers do.
/// Redirects are counted, not compared: a loop ends when the count runs out, as in browsers (a redirect back to the
/// same URL, say after setting a cookie, is legitimate).
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects one call follows; `0` means none.
    package let maxRedirects: Int
    /// Header fields removed, besides the credential fields (`Authorization`, `Proxy-Authorization`, `Cookie`),
    /// when a redirect leaves the origin: API keys and other secrets of your own (for example the names your
    /// `Redactor` hides).
    package private(set) var sensitiveFields: [HTTPFieldName] = []

    private init(maxRedirects: Int) {
        self.maxRedirects = max(0, maxRedirects)
    }

    /// Follows up to 20 redirects (the most `URLSession` follows on Linux); a longer chain or a loop ends with
    /// `APIClientError.networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects))`. The default.
    public static let follow = RedirectPolicy(maxRedirects: 20)

    /// Follows no redirect: the 3xx response itself (with its `Location` header) is the call's response.
    public static let doNotFollow = RedirectPolicy(maxRedirects: 0)

    /// Follows up to `count` redirects; one more ends the call with
    /// `APIClientError.networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects))`. `followAtMost(0)` is
    /// ``doNotFollow``.
    public static func followAtMost(_ count: Int) -> RedirectPolicy {
        RedirectPolicy(maxRedirects: count)
    }

    /// This policy, also removing `fields` when a redirect leaves the origin (as it removes `Authorization`).
    ///
    /// ```swift
    /// let policy = RedirectPolicy.follow.strippingAcrossOrigins("X-Api-Key", "X-Session")
    /// ```
    public func strippingAcrossOrigins(_ fields: HTTPFieldName...) -> RedirectPolicy {
        var copy = self
        copy.sensitiveFields += fields
        return copy
    }

    /// Whether any redirect is followed.
    package var followsRedirects: Bool { maxRedirects > 0 }
}
