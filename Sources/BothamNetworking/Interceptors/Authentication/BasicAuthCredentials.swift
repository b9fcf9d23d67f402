import Foundation

/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct BasicAuthCredentials: Sendable, Hashable {
    /// The user name. It must not contain `:`.
    public var username: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Basic ` followed by the Base64 of the UTF-8 bytes of `username:password`.
    package var authorizationHeaderValue: String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}

extension BasicAuthCredentials: CustomStringConvertible {
    /// The user name only: the password never appears in descriptions or logs (`String(reflecting:)` shows this
    /// too).
    public var description: String { "BasicAuthCredentials(username: \(DebugText.quoted(username)), password: ***)" }
}
