/// The integer representation of RFC 7541 §5.1: a value in an N-bit prefix of the first byte, and when it does not
/// fit, continuation bytes of 7 bits each, least significant first.
enum HPACKInteger {
    /// The largest integer the decoder accepts: far above any index, string length or table size a peer can
    /// mean, and small enough that no arithmetic on it overflows.
    static let maximum = Int(UInt32.max)

    /// Appends `value` (not negative) with a `prefixBits`-bit prefix (1–8); `flags` holds the first byte's bits
    /// above the prefix.
    static func encode(_ value: Int, prefixBits: Int, flags: UInt8 = 0, into buffer: inout [UInt8]) {
        let limit = (1 << prefixBits) - 1
        if value < limit {
            buffer.append(flags | UInt8(value))
            return
        }
        buffer.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 0x80 {
            buffer.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(rest))
    }

    /// Reads an integer with a `prefixBits`-bit prefix at `position` (which it advances past the integer).
    static func decode(
        _ bytes: [UInt8], at position: inout Int, prefixBits: Int
    ) throws(HPACKError) -> Int {
        guard position < bytes.count else { throw .truncated }
        let limit = (1 << prefixBits) - 1
        var value = Int(bytes[position]) & limit
        position += 1
        guard value == limit else { return value }
        var shift = 0
        while true {
            guard position < bytes.count else { throw .truncated }
            let byte = bytes[position]
            position += 1
            // 5 continuation bytes carry 35 bits, more than `maximum` needs; a sixth is an attack or a bug.
            guard shift <= 28 else { throw .integerOverflow }
            value += Int(byte & 0x7F) << shift
            guard value <= maximum else { throw .integerOverflow }
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
