/// Encodes the header blocks we send on one HTTP/2 connection (RFC 7541 §3, §6), keeping its dynamic table in step
/// with the peer's decoder.
///
/// - Names go out in lower case (RFC 9113 §8.2.1).
/// - A field already in a table is sent as its index; otherwise its name's index is used when there is one.
/// - Sensitive fields — `authorization`, `cookie`, `proxy-authorization`, the caller's names, and fields marked
///   ``HPACKHeaderField/neverIndexed`` — go as never-indexed literals (RFC 7541 §7.1.3): never added to a table,
///   never referenced by value, and an intermediary must forward them the same way.
/// - Other fields are added to the table as the ``HPACKIndexingPolicy`` says; strings are Huffman-coded as the
///   ``HPACKHuffmanPolicy`` says.
/// - A change of the peer's SETTINGS_HEADER_TABLE_SIZE is announced at the start of the next block, the lowest
///   value first when it went down and then up again (RFC 7541 §4.2).
package struct HPACKEncoder: Sendable {
    /// The names sent as never-indexed literals whatever the caller says.
    package static let defaultSensitiveNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// When strings are Huffman-coded.
    package var huffman: HPACKHuffmanPolicy
    /// Which fields are added to the dynamic table.
    package var indexing: HPACKIndexingPolicy
    /// The lower-case names sent as never-indexed literals: the defaults and the caller's.
    package let sensitiveNames: HPACKNameSet
    /// The largest table this encoder uses, however large the peer allows.
    package let preferredTableSize: Int
    private var table: HPACKDynamicTable
    /// The size updates the next block opens with: the lowest capacity since the last block, and the last one.
    private var pendingUpdate: (lowest: Int, last: Int)?

    /// An encoder for a peer whose decoder allows `maxTableSize` bytes (SETTINGS_HEADER_TABLE_SIZE, 4,096 until
    /// its SETTINGS say otherwise), using at most `preferredTableSize` of them, with `sensitiveNames` (any case)
    /// sent never-indexed besides the defaults.
    package init(
        maxTableSize: Int = 4096,
        preferredTableSize: Int = 4096,
        sensitiveNames: some Sequence<String> = [String](),
        huffman: HPACKHuffmanPolicy = .unlessLonger,
        indexing: HPACKIndexingPolicy = .sensible
    ) {
        self.huffman = huffman
        self.indexing = indexing
        self.preferredTableSize = max(0, preferredTableSize)
        self.sensitiveNames = HPACKNameSet(
            (Array(Self.defaultSensitiveNames) + Array(sensitiveNames)).map { HPACKEncoder.lowercased(Array($0.utf8)) })
        // Both sides start from the SETTINGS value; a smaller table of ours is announced in the first block.
        table = HPACKDynamicTable(capacity: max(0, maxTableSize))
        setPeerMaxTableSize(maxTableSize)
    }

    /// The dynamic table's entries, newest first.
    package var dynamicTableFields: [HPACKHeaderField] { table.fields }
    /// The bytes the dynamic table's entries take.
    package var dynamicTableSize: Int { table.size }
    /// The dynamic table's capacity.
    package var dynamicTableCapacity: Int { table.capacity }

    /// Applies the peer's new SETTINGS_HEADER_TABLE_SIZE: the table shrinks (or grows, up to
    /// ``preferredTableSize``) now, and the next block announces it.
    package mutating func setPeerMaxTableSize(_ size: Int) {
        let capacity = min(max(0, size), preferredTableSize)
        guard capacity != table.capacity || pendingUpdate != nil else { return }
        table.setCapacity(capacity)
        pendingUpdate = (min(pendingUpdate?.lowest ?? capacity, capacity), capacity)
    }

    /// Encodes `fields` as one header block.
    package mutating func encode(_ fields: [HPACKHeaderField]) -> [UInt8] {
        var block: [UInt8] = []
        encode(fields, into: &block)
        return block
    }

    /// Appends `fields`, encoded as one header block, to `block`.
    package mutating func encode(_ fields: [HPACKHeaderField], into block: inout [UInt8]) {
        if let update = pendingUpdate {
            if update.lowest < update.last {
                HPACKInteger.encode(update.lowest, prefixBits: 5, flags: 0x20, into: &block)
            }
            HPACKInteger.encode(update.last, prefixBits: 5, flags: 0x20, into: &block)
            pendingUpdate = nil
        }
        for field in fields {
            encode(field, into: &block)
        }
    }

    private mutating func encode(_ original: HPACKHeaderField, into block: inout [UInt8]) {
        let field = HPACKHeaderField(name: Self.lowercased(original.name), value: original.value)
        let sensitive = original.neverIndexed || sensitiveNames.contains(field.name)
        if !sensitive, let index = index(of: field) {
            HPACKInteger.encode(index, prefixBits: 7, flags: 0x80, into: &block)
            return
        }
        let nameIndex = self.nameIndex(of: field.name) ?? 0
        if sensitive {
            literal(field, nameIndex: nameIndex, prefixBits: 4, flags: 0x10, into: &block)
        } else if shouldIndex(field) {
            literal(field, nameIndex: nameIndex, prefixBits: 6, flags: 0x40, into: &block)
            table.insert(field)
        } else {
            literal(field, nameIndex: nameIndex, prefixBits: 4, flags: 0x00, into: &block)
        }
    }

    private func literal(
        _ field: HPACKHeaderField, nameIndex: Int, prefixBits: Int, flags: UInt8, into block: inout [UInt8]
    ) {
        HPACKInteger.encode(nameIndex, prefixBits: prefixBits, flags: flags, into: &block)
        if nameIndex == 0 {
            HPACKString.encode(field.name, policy: huffman, into: &block)
        }
        HPACKString.encode(field.value, policy: huffman, into: &block)
    }

    private func shouldIndex(_ field: HPACKHeaderField) -> Bool {
        switch indexing {
        case .everything:
            return field.size <= table.capacity
        case .sensible:
            return field.size * 4 <= table.capacity * 3 && !HPACKIndexingPolicy.variableNames.contains(field.name)
        }
    }

    /// The index of an entry with this name and value: the static table's first, else the dynamic table's newest.
    private func index(of field: HPACKHeaderField) -> Int? {
        if let index = HPACKStaticTable.index(name: field.name, value: field.value) { return index }
        return table.index(name: field.name, value: field.value).map { $0 + HPACKStaticTable.count }
    }

    /// The index of an entry with this name, preferring the static table (its indices are shorter).
    private func nameIndex(of name: [UInt8]) -> Int? {
        if let index = HPACKStaticTable.index(name: name) { return index }
        return table.index(name: name).map { $0 + HPACKStaticTable.count }
    }

    /// `name` with ASCII upper-case letters lowered.
    private static func lowercased(_ name: [UInt8]) -> [UInt8] {
        guard name.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
        return name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}
