/// An ordered, case-insensitive, multi-value list of HTTP header fields, used by requests and responses alike.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers[.authorization] = "Bearer t0k3n"      // replaces every Authorization field
/// headers.add("Vary", "Accept")                 // appends, keeps earlier fields
/// headers["accept"]                             // "application/json": lookup ignores case
/// ```
///
/// Names and values are stored as given; the client validates them before sending (CR, LF, NUL and other control
/// characters are rejected with ``APIClientError/invalidRequest(reason:)``).
public struct HTTPHeaders: Sendable, Hashable {
    /// One header field: a name and a value.
    public struct Field: Sendable, Hashable {
        /// The field's name.
        public var name: HTTPFieldName
        /// The field's value.
        public var value: String

        /// Creates a field.
        package init(name: HTTPFieldName, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order, repeats included.
    public private(set) var fields: [Field]

    /// Creates headers from fields, keeping their order and repeats.
    package init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary. The order follows the dictionary's sorted keys so it is deterministic.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: HTTPFieldName($0.key), value: $0.value) }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field with this name, or `nil`. Setting replaces every field with this name (at the
    /// position of the first one); setting `nil` removes them.
    public subscript(name: HTTPFieldName) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            guard let newValue else {
                fields.removeAll { $0.name == name }
                return
            }
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index] = Field(name: name, value: newValue)
                var next = index + 1
                while next < fields.count {
                    if fields[next].name == name { fields.remove(at: next) } else { next += 1 }
                }
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value of the fields with this name, in order.
    public func values(for name: HTTPFieldName) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Whether a field with this name exists.
    public func contains(_ name: HTTPFieldName) -> Bool {
        fields.contains { $0.name == name }
    }

    /// Appends a field, keeping any existing field with the same name.
    public mutating func add(_ name: HTTPFieldName, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields, so that adding that many does not grow the storage step by step (a parser
    /// reading a response head).
    package mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Removes every field with this name.
    public mutating func remove(_ name: HTTPFieldName) {
        fields.removeAll { $0.name == name }
    }

    /// Returns these headers with every field of `other` applied: a name present in `other` replaces all fields of
    /// that name here (the repeats of `other` are kept), other fields are untouched.
    package func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        let replaced = Set(other.fields.map(\.name))
        result.fields.removeAll { replaced.contains($0.name) }
        result.fields.append(contentsOf: other.fields)
        return result
    }

    /// A dictionary of the headers; repeated names are joined with `", "` as RFC 9110 allows (except `Set-Cookie`,
    /// whose first value is kept). Keys use the first spelling seen.
    package var dictionary: [String: String] {
        var result: [String: String] = [:]
        var spelling: [HTTPFieldName: String] = [:]
        for field in fields {
            if let key = spelling[field.name] {
                if field.name != .setCookie, let existing = result[key] {
                    result[key] = existing + ", " + field.value
                }
            } else {
                spelling[field.name] = field.name.rawName
                result[field.name.rawName] = field.value
            }
        }
        return result
    }

    /// The first invalid field, described for an error message, or `nil` when every name and value is valid.
    package var validationFailure: String? {
        for field in fields {
            if !field.name.isValid {
                return "invalid header name \(DebugText.quoted(field.name.rawName))"
            }
            if !field.value.utf8.allSatisfy(HTTPToken.isFieldValueCharacter) {
                return "invalid value for header \(field.name.rawName): control characters (CR, LF, NUL…) "
                    + "are not allowed"
            }
        }
        return nil
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates headers from a literal, keeping the literal's order: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (HTTPFieldName, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates the fields in order, repeats included, as `(name, value)` pairs:
    ///
    /// ```swift
    /// for (name, value) in response.headers {
    ///     print("\(name): \(value)")      // a name prints as it was spelled
    /// }
    /// for field in response.headers where field.name == .setCookie { cookies.append(field.value) }
    /// ```
    ///
    /// ``fields`` holds the same fields as ``Field`` values.
    public struct Iterator: IteratorProtocol {
        private var fields: IndexingIterator<[Field]>

        init(_ fields: [Field]) {
            self.fields = fields.makeIterator()
        }

        /// The next field's name and value.
        public mutating func next() -> (name: HTTPFieldName, value: String)? {
            fields.next().map { (name: $0.name, value: $0.value) }
        }
    }

    /// Iterates the fields in order as `(name, value)` pairs.
    public func makeIterator() -> Iterator {
        Iterator(fields)
    }

    /// The number of fields, repeats included.
    public var underestimatedCount: Int { fields.count }
}

extension HTTPHeaders: CustomStringConvertible {
    /// One `Name: value` line per field, with the values ``Redactor/default`` hides replaced by `REDACTED`.
    public var description: String {
        fields.map(\.description).joined(separator: "\n")
    }
}

extension HTTPHeaders.Field: CustomStringConvertible {
    /// `Name: value`, with `REDACTED` for a value ``Redactor/default`` hides (`Authorization`, tokens, cookies…).
    public var description: String {
        let field = Redactor.default.redact(self)
        return "\(DebugText.printable(field.name.rawName)): \(DebugText.printable(field.value))"
    }
}
