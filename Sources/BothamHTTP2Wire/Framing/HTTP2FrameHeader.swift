/// The 9 octets that open every frame (RFC 9113 §4.1): a 24-bit payload length, the type, the flags, and a
/// reserved bit with the 31-bit stream identifier.
struct HTTP2FrameHeader: Hashable, Sendable {
    /// The octets of a frame header.
    static let size = 9
    /// The largest length 24 bits can carry, 2^24 − 1.
    static let maximumLength = 0xFF_FFFF

    /// The payload's length in octets.
    var length: Int
    /// The frame's type.
    var type: HTTP2FrameType
    /// The flags octet, every bit as sent.
    var flags: HTTP2FrameFlags
    /// The stream, without the reserved bit.
    var streamID: HTTP2StreamID

    /// A header of these fields.
    init(length: Int, type: HTTP2FrameType, flags: HTTP2FrameFlags, streamID: HTTP2StreamID) {
        self.length = length
        self.type = type
        self.flags = flags
        self.streamID = streamID
    }

    /// Reads the header at `offset` of `bytes`, which must hold at least ``size`` octets from there.
    init(_ bytes: [UInt8], at offset: Int) {
        length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
        type = HTTP2FrameType(rawValue: bytes[offset + 3])
        flags = HTTP2FrameFlags(rawValue: bytes[offset + 4])
        streamID = HTTP2StreamID(HTTP2Bytes.uint32(bytes, at: offset + 5))
    }

    /// Appends the header's 9 octets (the reserved bit 0) to `buffer`; `length` must fit 24 bits.
    func write(into buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: length >> 16))
        buffer.append(UInt8(truncatingIfNeeded: length >> 8))
        buffer.append(UInt8(truncatingIfNeeded: length))
        buffer.append(type.rawValue)
        buffer.append(flags.rawValue)
        HTTP2Bytes.append(streamID.rawValue, to: &buffer)
    }
}
