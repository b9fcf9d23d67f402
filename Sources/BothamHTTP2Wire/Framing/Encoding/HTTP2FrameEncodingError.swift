/// Why the encoder would not write a frame.
package enum HTTP2FrameEncodingError: Error, Hashable, Sendable {
    /// The payload is longer than the peer's SETTINGS_MAX_FRAME_SIZE (RFC 9113 §4.2): DATA must be split by the
    /// caller; a field block goes through ``HTTP2FrameEncoder/encodeHeaders(streamID:fieldBlock:endStream:priority:padding:into:)``,
    /// which splits it.
    case frameTooLarge(HTTP2FrameType, length: Int, limit: Int)
}

extension HTTP2FrameEncodingError: CustomStringConvertible {
    /// A sentence with the numbers.
    package var description: String {
        switch self {
        case .frameTooLarge(let type, let length, let limit):
            "a \(type) payload of \(length) octets is over the peer's SETTINGS_MAX_FRAME_SIZE of \(limit)"
        }
    }
}
