/// The W3C Trace Context `tracestate` field: up to 32 vendor entries (`key=value`), passed on unchanged.
///
/// Only valid lists are kept: keys are lowercase (`vendor`, or `tenant@system`), values printable ASCII without
/// `,` or `=`, no key twice. A received `tracestate` that breaks these rules is dropped, as the specification asks.
package struct TraceState: Sendable, Hashable {
    /// One `key=value` entry.
    package struct Entry: Sendable, Hashable {
        /// The vendor's key.
        package let key: String
        /// The vendor's value.
        package let value: String
    }

    /// The entries, most recently updated first.
    package let entries: [Entry]

    /// The most entries a list may hold.
    package static let maximumEntries = 32

    /// Parses a `tracestate` field value; `nil` when it is not a valid list. Empty members are ignored.
    package init?(_ fieldValue: some StringProtocol) {
        var entries: [Entry] = []
        let text = String(fieldValue)
        for member in text[...].split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = HTTPFieldList.trimmingWhitespace(member)
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            entries.append(
                Entry(key: String(trimmed[..<equals]), value: String(trimmed[trimmed.index(after: equals)...])))
        }
        self.init(validating: entries)
    }

    /// A list of these entries; `nil` when a key or value is invalid, a key repeats, there are more than
    /// ``maximumEntries`` or none.
    package init?(entries: [(key: String, value: String)]) {
        self.init(validating: entries.map { Entry(key: $0.key, value: $0.value) })
    }

    private init?(validating entries: [Entry]) {
        guard !entries.isEmpty, entries.count <= Self.maximumEntries,
            Set(entries.map(\.key)).count == entries.count,
            entries.allSatisfy({ Self.isValidKey($0.key) && Self.isValidValue($0.value) })
        else { return nil }
        self.entries = entries
    }

    /// The field value: the entries joined by `,`.
    package var fieldValue: String {
        entries.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// `simple-key` or `tenant-id "@" system-id` of the specification.
    static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        let isLower = { (byte: UInt8) in byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let isKeyByte = { (byte: UInt8) in isLower(byte) || isDigit(byte) || "_-*/".utf8.contains(byte) }
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) {
            let tenant = bytes[..<at]
            let system = bytes[(at + 1)...]
            guard let tenantFirst = tenant.first, let systemFirst = system.first else { return false }
            return tenant.count <= 241 && (isLower(tenantFirst) || isDigit(tenantFirst))
                && tenant.allSatisfy(isKeyByte) && system.count <= 14 && isLower(systemFirst)
                && system.allSatisfy(isKeyByte)
        }
        guard let first = bytes.first else { return false }
        return bytes.count <= 256 && isLower(first) && bytes.allSatisfy(isKeyByte)
    }

    /// Up to 256 printable ASCII bytes other than `,` and `=`, not ending in a space.
    static func isValidValue(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard let last = bytes.last, bytes.count <= 256, last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }
    }
}
