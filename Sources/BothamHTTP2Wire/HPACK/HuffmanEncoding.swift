/// The Huffman encoder of RFC 7541 §5.2: each byte becomes its Appendix B code, and the last byte is padded with
/// the most significant bits of the EOS code (all ones).
enum HuffmanEncoding {
    /// The encoded length of `bytes` in bytes, padding included.
    static func encodedLength(of bytes: [UInt8]) -> Int {
        var bits = 0
        for byte in bytes {
            bits += Int(HuffmanCodeTable.codes[Int(byte)].length)
        }
        return (bits + 7) / 8
    }

    /// Appends the Huffman encoding of `bytes` to `buffer`.
    static func encode(_ bytes: [UInt8], into buffer: inout [UInt8]) {
        // At most 7 pending bits plus one code of at most 30 bits: 37 bits fit in 64.
        var pending: UInt64 = 0
        var pendingBits = 0
        for byte in bytes {
            let entry = HuffmanCodeTable.codes[Int(byte)]
            pending = (pending << UInt64(entry.length)) | UInt64(entry.code)
            pendingBits += Int(entry.length)
            while pendingBits >= 8 {
                pendingBits -= 8
                buffer.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingBits)))
            }
            pending &= (1 << UInt64(pendingBits)) - 1
        }
        if pendingBits > 0 {
            let padding = 8 - pendingBits
            buffer.append(UInt8(truncatingIfNeeded: (pending << UInt64(padding)) | ((1 << UInt64(padding)) - 1)))
        }
    }
}
