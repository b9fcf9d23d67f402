/// One header field as HPACK carries it: a name and a value of octets (RFC 7541 §1.3), and whether it travels as a
/// never-indexed literal (§6.2.3), which an intermediary must keep when it forwards the field.
package struct HPACKHeaderField: Hashable, Sendable {
    /// The name's octets (lower case on an HTTP/2 wire).
    package var name: [UInt8]
    /// The value's octets.
    package var value: [UInt8]
    /// Whether the field is, or must be, sent as a never-indexed literal.
    package var neverIndexed: Bool

    /// A field of `name` and `value`.
    package init(name: [UInt8], value: [UInt8], neverIndexed: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndexed = neverIndexed
    }

    /// A field of `name` and `value` as UTF-8.
    package init(name: String, value: String, neverIndexed: Bool = false) {
        self.init(name: Array(name.utf8), value: Array(value.utf8), neverIndexed: neverIndexed)
    }

    /// Its size as the dynamic table and SETTINGS_MAX_HEADER_LIST_SIZE count it: name + value + 32
    /// (RFC 7541 §4.1, RFC 9113 §6.5.2).
    package var size: Int { name.count + value.count + 32 }
}

extension HPACKHeaderField: CustomStringConvertible {
    /// `name: value` with both read as UTF-8, for test failures and logs.
    package var description: String {
        "\(String(decoding: name, as: UTF8.self)): \(String(decoding: value, as: UTF8.self))"
            + (neverIndexed ? " (never indexed)" : "")
    }
}
