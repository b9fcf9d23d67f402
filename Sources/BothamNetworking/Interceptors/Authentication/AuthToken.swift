extension TokenAuthenticator {
    /// An access token sent as `Authorization: <scheme> <value>` by ``TokenAuthenticator``.
    public struct Token: Sendable, Hashable {
        /// The token itself.
        public var value: String

        /// Creates a token.
        public init(_ value: String) {
            self.value = value
        }
    }
}

extension TokenAuthenticator.Token: CustomStringConvertible {
    /// Hides the value, so tokens never end up in logs by accident (`String(reflecting:)` shows this too).
    public var description: String { "AuthToken(\(value.utf8.count) bytes)" }
}
