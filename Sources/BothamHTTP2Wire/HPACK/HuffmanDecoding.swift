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

    /// For every 8-bit prefix, the symbol of the code of 8 bits or fewer it starts with and that code's length
    /// (`symbol << 4 | length`), or 0 when it starts a longer code: most octets of a header value are one look-up.
    private static let shortCodes: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 256)
        for (symbol, code) in HuffmanCodeTable.codes.enumerated() where code.length <= 8 {
            let length = Int(code.length)
            let first = Int(code.code) << (8 - length)
            for prefix in first..<(first + (1 << (8 - length))) {
                table[prefix] = UInt16(symbol) << 4 | UInt16(length)
            }
        }
        return table
    }()

    /// Decodes `bytes`, a Huffman-encoded string literal.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        // The next bits, most significant first, in the low `bitCount` bits of `bits`.
        var bits: UInt64 = 0
        var bitCount = 0
        var index = bytes.startIndex
        let end = bytes.endIndex
        while true {
            while bitCount <= 56 && index < end {
                bits = bits << 8 | UInt64(bytes[index])
                bitCount += 8
                index += 1
            }
            guard bitCount > 0 else { break }
            // The next 8 bits, padded with ones (EOS's first bits) past the end of the input.
            let peek =
                bitCount >= 8
                ? Int((bits >> UInt64(bitCount - 8)) & 0xFF)
                : Int(((bits << UInt64(8 - bitCount)) | ((1 << UInt64(8 - bitCount)) - 1)) & 0xFF)
            let entry = shortCodes[peek]
            let length = Int(entry & 0xF)
            if length != 0 && length <= bitCount {
                output.append(UInt8(truncatingIfNeeded: entry >> 4))
                bitCount -= length
                bits &= (1 << UInt64(bitCount)) &- 1
                continue
            }
            guard index == end || bitCount >= 30 else { continue }
            // A code longer than 8 bits (or the padding at the end).
            guard let (symbol, codeLength) = try longCode(bits, bitCount: bitCount) else { break }
            output.append(symbol)
            bitCount -= codeLength
            bits &= (1 << UInt64(bitCount)) &- 1
        }
        // What is left must be a strict prefix of EOS (all ones) of at most 7 bits.
        guard bitCount <= 7, bits == (UInt64(1) << UInt64(bitCount)) - 1 else { throw .invalidHuffmanPadding }
        return output
    }

    /// The symbol of the code of 9 to 30 bits that `bits` starts with, and its length; `nil` when fewer bits
    /// remain than any code needs (the end of the input: what remains must be padding).
    private static func longCode(_ bits: UInt64, bitCount: Int) throws(HPACKError) -> (UInt8, Int)? {
        guard bitCount >= 5 else { return nil }
        let table = canonical
        for length in 5...min(30, bitCount) {
            let code = UInt32(truncatingIfNeeded: bits >> UInt64(bitCount - length))
            let first = table.firstCode[length]
            guard code >= first, code - first < table.count[length] else { continue }
            let symbol = table.symbols[table.offset[length] + Int(code - first)]
            guard Int(symbol) != HuffmanCodeTable.endOfString else { throw .huffmanEndOfString }
            return (UInt8(truncatingIfNeeded: symbol), length)
        }
        // The code is complete, so 30 bits always hold a whole code; fewer can only be the end.
        guard bitCount < 30 else { throw .invalidHuffmanPadding }
        return nil
    }
}
