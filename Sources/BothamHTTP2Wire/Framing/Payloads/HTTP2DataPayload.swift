extension HTTP2Frame {
    /// What a DATA frame carries (RFC 9113 §6.1).
    package struct DataPayload: Hashable, Sendable {
        /// The stream's content in this frame, without padding: a decoded frame's is a slice of the decoder's buffer
        /// (no copy), valid to keep but best dropped before the decoder's next `append`, which would otherwise copy
        /// its buffer.
        package var bytes: ArraySlice<UInt8>
        /// END_STREAM: the sender's last frame on the stream.
        package var endStream: Bool
        /// The padding's length when the frame is PADDED (its octets are zero when sent, ignored on receipt).
        package var padding: UInt8?

        /// A DATA payload of `bytes`.
        package init(bytes: ArraySlice<UInt8>, endStream: Bool = false, padding: UInt8? = nil) {
            self.bytes = bytes
            self.endStream = endStream
            self.padding = padding
        }

        /// A DATA payload of `bytes`.
        package init(bytes: [UInt8], endStream: Bool = false, padding: UInt8? = nil) {
            self.init(bytes: bytes[...], endStream: endStream, padding: padding)
        }

        /// The octets flow control counts: the whole payload, Pad Length octet and padding included (§6.9.1).
        package var flowControlledLength: Int {
            bytes.count + (padding.map { Int($0) + 1 } ?? 0)
        }
    }
}
