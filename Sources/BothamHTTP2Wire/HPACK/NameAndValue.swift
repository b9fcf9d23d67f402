/// A table key: a field's name and value, without its never-indexed flag.
struct NameAndValue: Hashable, Sendable {
    var name: [UInt8]
    var value: [UInt8]

    init(name: [UInt8], value: [UInt8]) {
        self.name = name
        self.value = value
    }

    init(_ field: HPACKHeaderField) {
        self.init(name: field.name, value: field.value)
    }

    /// The octets hashed as blocks of memory rather than one `UInt8` at a time (the synthesized hash was 1.4% of
    /// an HTTP/2 call's CPU: every request field is looked up in the encoder's tables); the name's length keeps
    /// `("ab", "c")` and `("a", "bc")` apart.
    func hash(into hasher: inout Hasher) {
        hasher.combine(name.count)
        name.withUnsafeBytes { hasher.combine(bytes: $0) }
        value.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
