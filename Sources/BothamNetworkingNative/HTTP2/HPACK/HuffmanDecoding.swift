/// The Huffman decoder of RFC 7541 §5.2, built on the code being canonical: the codes of each length are
/// consecutive numbers, so a prefix of `length` bits is a whole code exactly when it falls in that length's range.
///
/// Errors (never traps): the EOS symbol inside the string (``HPACKError/huffmanEndOfString``), and padding longer
/// than 7 bits or not all ones (``HPACKError/invalidHuffmanPadding``).
enum HuffmanDecoding {
    /// For each code length (index 0–30): the first code of that length, how many codes have it, and where its
    /// symbols start in `symbols`.
    private struct Canonical: Sendable {
        var firstCode = [UInt32](repeating: 0, count: 31)
        var count = [UInt32](repeating: 0, count: 31)
        var offset = [Int](repeating: 0, count: 31)
        var symbols: [UInt16] = []
    }

    private static let canonical: Canonical = {
        var table = Canonical()
        let codes = HuffmanCodeTable.codes
        table.symbols = (0..<codes.count).map(UInt16.init).sorted {
            (codes[Int($0)].length, $0) < (codes[Int($1)].length, $1)
        }
        for symbol in table.symbols {
            table.count[Int(codes[Int(symbol)].length)] += 1
        }
        var code: UInt32 = 0
        var offset = 0
        for length in 1...30 {
            code <<= 1
            table.firstCode[length] = code
            table.offset[length] = offset
            code += table.count[length]
            offset += Int(table.count[length])
        }
        return table
    }()

    /// Decodes `bytes`, a Huffman-encoded string literal.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
        let table = canonical
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        var code: UInt32 = 0
        var length = 0
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                code = (code << 1) | UInt32((byte >> UInt8(shift)) & 1)
                length += 1
                // The code is complete, so every 30-bit prefix is a whole code; this only guards the table.
                guard length <= 30 else { throw .invalidHuffmanPadding }
                let first = table.firstCode[length]
                guard code >= first, code - first < table.count[length] else { continue }
                let symbol = table.symbols[table.offset[length] + Int(code - first)]
                guard Int(symbol) != HuffmanCodeTable.endOfString else { throw .huffmanEndOfString }
                output.append(UInt8(truncatingIfNeeded: symbol))
                code = 0
                length = 0
            }
        }
        // What is left must be a strict prefix of EOS (all ones) of at most 7 bits.
        guard length <= 7, code == (UInt32(1) << UInt32(length)) - 1 else { throw .invalidHuffmanPadding }
        return output
    }
}
