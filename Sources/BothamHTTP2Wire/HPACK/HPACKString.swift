/// The string literal representation of RFC 7541 §5.2: a Huffman flag and a 7-bit-prefix length, then the octets,
/// raw or Huffman-encoded.
enum HPACKString {
    /// Appends `bytes` as a string literal, Huffman-encoded when `policy` says so for this string.
    static func encode(_ bytes: [UInt8], policy: HPACKHuffmanPolicy, into buffer: inout [UInt8]) {
        let huffmanLength: Int
        switch policy {
        case .never:
            huffmanLength = Int.max
        case .unlessLonger:
            huffmanLength = HuffmanEncoding.encodedLength(of: bytes)
        }
        if huffmanLength <= bytes.count {
            HPACKInteger.encode(huffmanLength, prefixBits: 7, flags: 0x80, into: &buffer)
            HuffmanEncoding.encode(bytes, into: &buffer)
        } else {
            HPACKInteger.encode(bytes.count, prefixBits: 7, into: &buffer)
            buffer.append(contentsOf: bytes)
        }
    }

    /// Reads a string literal at `position` (which it advances past the string) and returns its octets, decoding a
    /// Huffman-coded one through `memo`.
    static func decode(_ bytes: [UInt8], at position: inout Int, memo: inout HuffmanMemo) throws(HPACKError)
        -> [UInt8]
    {
        guard position < bytes.count else { throw .truncated }
        let huffman = bytes[position] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &position, prefixBits: 7)
        guard length <= bytes.count - position else { throw .truncated }
        let octets = bytes[position..<(position + length)]
        position += length
        return huffman ? try memo.decode(octets) : Array(octets)
    }
}
