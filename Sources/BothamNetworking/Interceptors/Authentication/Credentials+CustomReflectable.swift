// `dump` and debuggers read these mirrors instead of the stored properties, so they hide the secret as the
// descriptions do.

extension TokenAuthenticator.Token: CustomReflectable {
    /// The token's size only, never its value.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["value": "\(Redactor.default.replacement) (\(value.utf8.count) bytes)"],
            displayStyle: .struct)
    }
}

extension BasicAuthCredentials: CustomReflectable {
    /// The user name only, never the password.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "password": Redactor.default.replacement], displayStyle: .struct)
    }
}
