extension MockWebServer {
    /// One header field as it appears on the wire: a name and a value, kept in order, repeats allowed.
    public struct HeaderField: Sendable, Hashable, CustomStringConvertible {
        /// The field name, with the case the peer used.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// Creates a header field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// The field as `Name: value`.
        public var description: String { "\(name): \(value)" }
    }
}

extension [MockWebServer.HeaderField] {
    /// The values of every field called `name` (compared case-insensitively), in order.
    func values(named name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Whether a field called `name` (case-insensitively) is present.
    func contains(named name: String) -> Bool {
        let wanted = name.lowercased()
        return contains { $0.name.lowercased() == wanted }
    }

    /// The comma-separated tokens of every field called `name`, trimmed and lowercased.
    func tokens(named name: String) -> [String] {
        values(named: name)
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Removes every field called `name` (case-insensitively).
    mutating func removeAll(named name: String) {
        let wanted = name.lowercased()
        removeAll { $0.name.lowercased() == wanted }
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
