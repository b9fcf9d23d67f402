/// The flags octet of a frame header (RFC 9113 §4.1). Each type defines its own; a flag a type does not define
/// is ignored on read and never sent (§4.1).
struct HTTP2FrameFlags: OptionSet, Hashable, Sendable {
    /// END_STREAM of DATA and HEADERS: the sender's last frame on the stream.
    static let endStream = HTTP2FrameFlags(rawValue: 0x01)
    /// ACK of SETTINGS and PING (the same bit as END_STREAM).
    static let ack = HTTP2FrameFlags(rawValue: 0x01)
    /// END_HEADERS of HEADERS, PUSH_PROMISE and CONTINUATION: the field block ends with this frame.
    static let endHeaders = HTTP2FrameFlags(rawValue: 0x04)
    /// PADDED of DATA, HEADERS and PUSH_PROMISE: a Pad Length octet opens the payload.
    static let padded = HTTP2FrameFlags(rawValue: 0x08)
    /// PRIORITY of HEADERS: the payload carries the deprecated priority fields.
    static let priority = HTTP2FrameFlags(rawValue: 0x20)

    /// The flags octet.
    let rawValue: UInt8
}
