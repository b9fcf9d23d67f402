// Spellings of the release before TokenAuthenticator's vocabulary was nested in it (#34: every rename keeps a
// deprecated shim for at least one minor version).

/// Holds the current access token and runs at most one refresh at a time.
@available(*, deprecated, renamed: "TokenAuthenticator.Store")
public typealias TokenStore = TokenAuthenticator.Store

/// An access token sent by ``TokenAuthenticator``.
@available(*, deprecated, renamed: "TokenAuthenticator.Token")
public typealias AuthToken = TokenAuthenticator.Token

/// At most so many refreshes per window.
@available(*, deprecated, renamed: "TokenAuthenticator.RefreshLimit")
public typealias TokenRefreshLimit = TokenAuthenticator.RefreshLimit

/// Why ``TokenAuthenticator`` could not produce a fresh token. Never reaches a caller: a spent refresh limit passes
/// the rejected response on.
@available(*, deprecated, message: "never thrown: a spent refresh limit passes the rejected response on")
public enum TokenAuthenticationError: Error, Sendable, Hashable {
    /// More refreshes were needed than the limit allows.
    case refreshLimitExceeded(maxRefreshes: Int, window: Duration)
}
