/// Ordered query (or form) parameters. Repeated names are allowed and kept in order.
///
/// ```swift
/// apiClient.GET("/search", parameters: ["q": "swift", "page": "2"])   // ?q=swift&page=2
/// ```
public struct HTTPParameters: Sendable, Hashable {
    /// One parameter.
    public struct Item: Sendable, Hashable {
        /// The parameter's name, not yet escaped.
        public var name: String
        /// The parameter's value, not yet escaped. An empty value is sent as `name=`.
        public var value: String

        /// Creates a parameter.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters in order.
    public private(set) var items: [Item]

    /// Creates parameters from items, keeping their order.
    package init(_ items: [Item] = []) {
        self.items = items
    }

    /// Creates parameters from a dictionary, ordered by name so the URL is deterministic.
    public init(_ dictionary: [String: String]) {
        items = dictionary.sorted { $0.key < $1.key }.map { Item(name: $0.key, value: $0.value) }
    }

    /// Whether there are no parameters.
    public var isEmpty: Bool { items.isEmpty }

    /// The first value for a name (names compare exactly, as servers read them), or `nil`. Setting a value
    /// replaces every parameter of that name with one, at the position of the first (appended when there was none);
    /// setting `nil` removes them, as ``HTTPHeaders``' subscript does:
    ///
    /// ```swift
    /// var parameters: HTTPParameters = ["page": "1", "tag": "a", "tag": "b"]
    /// parameters["page"] = "2"      // page=2&tag=a&tag=b
    /// parameters["tag"] = nil       // page=2
    /// parameters.append("tag", "c") // page=2&tag=c — append keeps repeats
    /// ```
    public subscript(name: String) -> String? {
        get { items.first { $0.name == name }?.value }
        set {
            guard let newValue else {
                items.removeAll { $0.name == name }
                return
            }
            guard let index = items.firstIndex(where: { $0.name == name }) else {
                items.append(Item(name: name, value: newValue))
                return
            }
            items[index].value = newValue
            var next = index + 1
            while next < items.count {
                if items[next].name == name { items.remove(at: next) } else { next += 1 }
            }
        }
    }

    /// Appends a parameter (repeats allowed).
    public mutating func append(_ name: String, _ value: String) {
        items.append(Item(name: name, value: value))
    }

    /// These parameters followed by `other`'s.
    public func appending(_ other: HTTPParameters) -> HTTPParameters {
        HTTPParameters(items + other.items)
    }

    /// The parameters as `name=value` pairs joined by `&`, RFC 3986-escaped: everything but the unreserved
    /// characters (`A–Z a–z 0–9 - . _ ~`) and `?` `/` is percent-encoded as UTF-8.
    package var percentEncoded: String {
        items.map { URLEncoding.escapeQueryComponent($0.name) + "=" + URLEncoding.escapeQueryComponent($0.value) }
            .joined(separator: "&")
    }
}

extension HTTPParameters: ExpressibleByDictionaryLiteral {
    /// Creates parameters from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        items = elements.map { Item(name: $0.0, value: $0.1) }
    }
}

extension HTTPParameters: Sequence {
    /// Iterates the parameters in order.
    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }
}
