/// Big-endian integers in frame payloads (RFC 9113 §4.1: network byte order throughout).
enum HTTP2Bytes {
    /// The 32-bit integer at `offset`; `bytes` must hold 4 octets from there.
    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// The 16-bit integer at `offset`; `bytes` must hold 2 octets from there.
    static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    /// Appends `value`'s 4 octets, most significant first.
    static func append(_ value: UInt32, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends `value`'s 2 octets, most significant first.
    static func append(_ value: UInt16, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }
}
