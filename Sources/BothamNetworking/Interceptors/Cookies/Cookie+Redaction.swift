import Foundation

// A cookie's value is often a session secret: `print`, string interpolation, `debugPrint`, `String(reflecting:)`,
// `dump` and debuggers show (`String(reflecting:)` falls back on `description`) ``Redactor/default``'s replacement instead, as they do for a `Cookie` header.

extension CookieJar.Cookie: CustomStringConvertible {
    /// The name, domain and path, with the value replaced: `Cookie(name: "session", value: REDACTED, domain: …)`.
    public var description: String {
        var text = "Cookie(name: \(DebugText.quoted(name)), value: \(Redactor.default.replacement), "
        text += "domain: \(DebugText.quoted(domain)), path: \(DebugText.quoted(path))"
        if isSecure { text += ", secure" }
        if let expiresAt { text += ", expires: \(expiresAt)" }
        return text + ")"
    }
}

extension CookieJar.Cookie: CustomReflectable {
    /// Every stored property, the value replaced by ``Redactor/default``'s replacement.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "value": Redactor.default.replacement, "domain": domain, "isHostOnly": isHostOnly,
                "path": path, "isSecure": isSecure, "isHTTPOnly": isHTTPOnly, "sameSite": sameSite as Any,
                "expiresAt": expiresAt as Any, "createdAt": createdAt,
            ],
            displayStyle: .struct)
    }
}
