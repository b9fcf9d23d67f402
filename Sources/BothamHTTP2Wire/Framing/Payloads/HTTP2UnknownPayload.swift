extension HTTP2Frame {
    /// A frame of a type RFC 9113 does not define (§4.1, §5.5), kept whole so the connection can ignore it (or
    /// an extension understand it).
    package struct UnknownPayload: Hashable, Sendable {
        /// The type octet.
        package var type: HTTP2FrameType
        /// The flags octet, as sent.
        package var flags: UInt8
        /// The payload, as sent.
        package var bytes: [UInt8]

        /// A frame of `type` with these flags and payload.
        package init(type: HTTP2FrameType, flags: UInt8 = 0, bytes: [UInt8] = []) {
            self.type = type
            self.flags = flags
            self.bytes = bytes
        }
    }
}
