/// Whether ``NativeHTTPClient`` follows redirects (see ``RedirectRules`` for what changes on each hop).
public enum NativeRedirectPolicy: Sendable, Hashable {
    /// Return 3xx responses as they are.
    case doNotFollow
    /// Follow up to `maximum` redirects; one more (or a loop) fails with `NetworkFailure.Kind.tooManyRedirects`.
    case follow(maximum: Int)

    /// Follow up to 10 redirects.
    public static let standard = NativeRedirectPolicy.follow(maximum: 10)
}
