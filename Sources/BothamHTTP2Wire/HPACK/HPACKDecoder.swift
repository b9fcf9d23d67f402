/// Decodes the header blocks of one HTTP/2 connection's peer (RFC 7541 §3), keeping the dynamic table in step with
/// the peer's encoder, and bounded against compression bombs: the table never grows beyond our
/// SETTINGS_HEADER_TABLE_SIZE, and a block's fields never add up to more than our SETTINGS_MAX_HEADER_LIST_SIZE
/// (name + value + 32 each).
///
/// Every malformed block is an ``HPACKError``, never a trap. After any error but
/// ``HPACKError/headerListTooLarge(limit:)`` the table is out of step with the peer and the connection must close
/// (COMPRESSION_ERROR); after that one the whole block was still processed, so only its stream fails.
package struct HPACKDecoder: Sendable {
    /// The most bytes the decoded fields of one block may take, name + value + 32 each.
    package var maxHeaderListSize: Int
    /// The largest table size a size update may ask for: our SETTINGS_HEADER_TABLE_SIZE.
    package private(set) var maxTableSizeLimit: Int
    private var table: HPACKDynamicTable
    /// The lowest limit set since the last block, when it is below the table's capacity: the next block must
    /// start with a size update to at most this (RFC 7541 §4.2).
    private var requiredUpdateCeiling: Int?
    /// The peer's recent Huffman-coded strings, decoded.
    private var huffmanMemo = HuffmanMemo()

    /// A decoder for a connection whose SETTINGS allow a table of `maxTableSize` bytes (4,096 unless changed,
    /// RFC 9113 §6.5.2) and header lists of `maxHeaderListSize` bytes (by default 64 KiB, the HTTP/1.1 parser's
    /// `maxHeaderBytes` default).
    package init(maxTableSize: Int = 4096, maxHeaderListSize: Int = 64 * 1024) {
        self.maxHeaderListSize = maxHeaderListSize
        maxTableSizeLimit = max(0, maxTableSize)
        table = HPACKDynamicTable(capacity: maxTableSizeLimit)
    }

    /// The dynamic table's entries, newest first.
    package var dynamicTableFields: [HPACKHeaderField] { table.fields }
    /// The bytes the dynamic table's entries take.
    package var dynamicTableSize: Int { table.size }
    /// The dynamic table's current capacity (the peer's last size update).
    package var dynamicTableCapacity: Int { table.capacity }

    /// Applies a new SETTINGS_HEADER_TABLE_SIZE of ours once the peer has acknowledged it. When it is below the
    /// table's capacity, the peer's next block must open with a size update that honours it.
    package mutating func setMaxTableSizeLimit(_ limit: Int) {
        maxTableSizeLimit = max(0, limit)
        if maxTableSizeLimit < table.capacity {
            requiredUpdateCeiling = min(requiredUpdateCeiling ?? maxTableSizeLimit, maxTableSizeLimit)
        }
    }

    /// Decodes one whole header block (a HEADERS or PUSH_PROMISE fragment with its CONTINUATIONs).
    package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [HPACKHeaderField] {
        var list = HeaderList(limit: maxHeaderListSize)
        var position = 0
        var sawField = false
        while position < block.count {
            let byte = block[position]
            if byte & 0xE0 == 0x20 {
                guard !sawField else { throw .tableSizeUpdateNotAtStart }
                let size = try HPACKInteger.decode(block, at: &position, prefixBits: 5)
                guard size <= maxTableSizeLimit else { throw .tableSizeAboveLimit(size, limit: maxTableSizeLimit) }
                table.setCapacity(size)
                if let ceiling = requiredUpdateCeiling, size <= ceiling { requiredUpdateCeiling = nil }
                continue
            }
            if !sawField {
                guard requiredUpdateCeiling == nil else { throw .missingTableSizeUpdate }
                sawField = true
            }
            if byte & 0x80 != 0 {
                let index = try HPACKInteger.decode(block, at: &position, prefixBits: 7)
                list.append(try field(at: index))
            } else if byte & 0x40 != 0 {
                let field = try literal(block, at: &position, prefixBits: 6)
                table.insert(field)
                list.append(field)
            } else {
                var field = try literal(block, at: &position, prefixBits: 4)
                field.neverIndexed = byte & 0x10 != 0
                list.append(field)
            }
        }
        guard !list.overLimit else { throw .headerListTooLarge(limit: maxHeaderListSize) }
        return list.fields
    }

    /// A literal representation's field: an indexed or literal name, then a literal value (RFC 7541 §6.2).
    private mutating func literal(_ block: [UInt8], at position: inout Int, prefixBits: Int) throws(HPACKError)
        -> HPACKHeaderField
    {
        let nameIndex = try HPACKInteger.decode(block, at: &position, prefixBits: prefixBits)
        let name =
            nameIndex == 0
            ? try HPACKString.decode(block, at: &position, memo: &huffmanMemo) : try field(at: nameIndex).name
        let value = try HPACKString.decode(block, at: &position, memo: &huffmanMemo)
        return HPACKHeaderField(name: name, value: value)
    }

    /// The entry at `index` of the static table followed by the dynamic one (RFC 7541 §2.3.3).
    private func field(at index: Int) throws(HPACKError) -> HPACKHeaderField {
        guard index != 0 else { throw .zeroIndex }
        if let field = HPACKStaticTable.field(at: index) { return field }
        guard let field = table.field(at: index - HPACKStaticTable.count) else { throw .indexOutOfRange(index) }
        return field
    }
}
