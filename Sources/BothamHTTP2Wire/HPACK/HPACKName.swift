/// A field name's octets as a set or dictionary key, hashed as one block of memory rather than one `UInt8` at a time
/// (field names are looked up several times per field of every request and response: BENCHMARKS.md, "The fast path by
/// default").
struct HPACKName: Hashable, Sendable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
