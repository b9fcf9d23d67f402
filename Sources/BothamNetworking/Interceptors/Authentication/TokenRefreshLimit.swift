extension TokenAuthenticator {
    /// At most `maxRefreshes` refreshes in any `window`: stops a server that rejects every token from making the
    /// client refresh forever.
    public struct RefreshLimit: Sendable, Hashable {
        /// How many refreshes may start within one window.
        package var maxRefreshes: Int
        /// The length of the sliding window.
        package var window: Duration

        /// Creates a limit; the default allows 3 refreshes per 60 seconds.
        public init(maxRefreshes: Int = 3, window: Duration = .seconds(60)) {
            self.maxRefreshes = maxRefreshes
            self.window = window
        }
    }

    /// Why the store gave no fresh token: the refresh limit is spent, so the rejected response is passed on.
    package enum RefreshLimitExceeded: Error, Sendable, Hashable {
        /// More refreshes were needed than the ``RefreshLimit`` allows.
        case refreshLimitExceeded(maxRefreshes: Int, window: Duration)
    }
}
