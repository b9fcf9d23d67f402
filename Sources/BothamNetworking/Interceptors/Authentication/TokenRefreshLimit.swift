/// At most ``maxRefreshes`` refreshes in any ``window``: stops a server that rejects every token from making the
/// client refresh forever.
public struct TokenRefreshLimit: Sendable, Hashable {
    /// How many refreshes may start within one window.
    public var maxRefreshes: Int
    /// The length of the sliding window.
    public var window: Duration

    /// Creates a limit; the default allows 3 refreshes per 60 seconds.
    public init(maxRefreshes: Int = 3, window: Duration = .seconds(60)) {
        self.maxRefreshes = maxRefreshes
        self.window = window
    }
}

/// Why ``TokenAuthenticator`` could not produce a fresh token.
public enum TokenAuthenticationError: Error, Sendable, Hashable {
    /// More refreshes were needed than ``TokenRefreshLimit`` allows; the rejected response is passed on instead.
    case refreshLimitExceeded(maxRefreshes: Int, window: Duration)
}
