/// A set of field names as octets that answers most "not in it" by length alone: a name whose length no member has
/// is never hashed (and one that is, is hashed as a block of memory, ``HPACKName``). Field names are checked against a
/// few sets per field of every request and response, and hashing each name octet by octet was 6% of an HTTP/2 call's
/// CPU (BENCHMARKS.md, "The fast path by default").
package struct HPACKNameSet: Sendable {
    private let names: Set<HPACKName>
    /// Bit `n` is set when a member has `n` octets (names of 64 octets or more always go to ``names``).
    private let lengths: UInt64

    /// A set of `names`, as given (no case folding).
    package init(_ names: some Sequence<[UInt8]>) {
        let names = Set(names.map(HPACKName.init))
        self.names = names
        lengths = names.reduce(0) { $1.bytes.count < 64 ? $0 | (1 << UInt64($1.bytes.count)) : $0 }
    }

    /// A set of `names`' UTF-8 octets, as given.
    package init(utf8 names: some Sequence<String>) {
        self.init(names.map { Array($0.utf8) })
    }

    /// Whether `name` is a member.
    package func contains(_ name: [UInt8]) -> Bool {
        if name.count < 64, lengths & (1 << UInt64(name.count)) == 0 { return false }
        return names.contains(HPACKName(bytes: name))
    }

}
