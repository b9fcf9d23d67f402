/// An access token sent as `Authorization: <scheme> <value>` by ``TokenAuthenticator``.
public struct AuthToken: Sendable, Hashable {
    /// The token itself.
    public var value: String

    /// Creates a token.
    public init(_ value: String) {
        self.value = value
    }
}

extension AuthToken: CustomStringConvertible {
    /// Hides the value, so tokens never end up in logs by accident.
    public var description: String { "AuthToken(\(value.utf8.count) bytes)" }
}

extension AuthToken: CustomDebugStringConvertible {
    /// The same as ``description``.
    public var debugDescription: String { description }
}
