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
}
