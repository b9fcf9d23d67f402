import Foundation

// `dump`, `Mirror(reflecting:)`, `String(reflecting:)` of a type without a description, and debuggers that walk
// children read these mirrors instead of the stored properties, so they hide what ``Redactor/default`` hides, as the
// descriptions do.

extension HTTPHeaders.Field: CustomReflectable {
    /// The name and the value, `REDACTED` when ``Redactor/default`` hides it.
    public var customMirror: Mirror {
        let field = Redactor.default.redact(self)
        return Mirror(self, children: ["name": field.name.rawName, "value": field.value], displayStyle: .struct)
    }
}

extension HTTPHeaders: CustomReflectable {
    /// The fields in order, each with its value `REDACTED` when ``Redactor/default`` hides it.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: fields, displayStyle: .collection)
    }
}

extension HTTPBody: CustomReflectable {
    /// The body's ``description``, with the secret fields hidden.
    public var customMirror: Mirror {
        Mirror(self, children: ["contents": description], displayStyle: .struct)
    }
}

extension HTTPRequest: CustomReflectable {
    /// The method, the URL (without a password), the headers and the body, redacted as ``debugDescription`` is.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [
            ("method", method.rawValue),
            ("url", Redactor.default.redactedURL(of: self)),
            ("headers", headers),
        ]
        if let body { children.append(("body", body)) }
        if let timeout { children.append(("timeout", timeout)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension HTTPResponse: CustomReflectable {
    /// The status code, the URL, the headers, the body and the request, redacted as ``debugDescription`` is.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [
            ("statusCode", statusCode),
            ("url", url.map { Redactor.default.redact($0) } as Any),
            ("headers", headers),
        ]
        if let bodyFileURL {
            children.append(("bodyFileURL", bodyFileURL))
        } else if bodyStream != nil {
            children.append(("body", "(body streamed)"))
        } else {
            children.append(
                ("body", DebugText.body(Redactor.default.redact(body: body, contentType: headers[.contentType]))))
        }
        children.append(("request", request))
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
