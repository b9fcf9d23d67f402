import BothamNetworking

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let values) = self else { return nil }
        return values
    }

    /// The value at a member path, for example `json[path: "json", "scopes"]`.
    public subscript(path keys: String...) -> JSONValue? {
        var current: JSONValue? = self
        for key in keys { current = current?[key] }
        return current
    }

    /// A header from an httpbin `headers` object, looked up ignoring case.
    public func header(_ name: String) -> String? {
        guard case .object(let members)? = self["headers"] else { return nil }
        return members.first { $0.key.lowercased() == name.lowercased() }?.value.stringValue
    }
}
