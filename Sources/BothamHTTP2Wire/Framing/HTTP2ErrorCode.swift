/// Why a stream or the connection ends (RFC 9113 §7), as RST_STREAM and GOAWAY carry it. The 14 codes of the
/// RFC have names; any other value is kept as it came, and treated like ``internalError`` (§7: "Unknown or
/// unsupported error codes MUST NOT trigger any special behavior").
package struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable {
    /// NO_ERROR (0x0): a graceful end, not an error.
    package static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// PROTOCOL_ERROR (0x1): the peer broke the protocol, where no more specific code applies.
    package static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// INTERNAL_ERROR (0x2): the sender failed on its own.
    package static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// FLOW_CONTROL_ERROR (0x3): the peer broke flow control.
    package static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// SETTINGS_TIMEOUT (0x4): SETTINGS went unacknowledged too long.
    package static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// STREAM_CLOSED (0x5): a frame came on a half-closed stream.
    package static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// FRAME_SIZE_ERROR (0x6): a frame of the wrong size.
    package static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// REFUSED_STREAM (0x7): the stream was refused before any processing; it is safe to retry.
    package static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// CANCEL (0x8): the stream is no longer needed.
    package static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// COMPRESSION_ERROR (0x9): the field compression context cannot be kept.
    package static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// CONNECT_ERROR (0xa): the connection of a CONNECT request failed.
    package static let connectError = HTTP2ErrorCode(rawValue: 0xA)
    /// ENHANCE_YOUR_CALM (0xb): the peer is generating excessive load.
    package static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)
    /// INADEQUATE_SECURITY (0xc): the transport does not meet the security requirements (§9.2).
    package static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xC)
    /// HTTP_1_1_REQUIRED (0xd): the request must be retried over HTTP/1.1.
    package static let http11Required = HTTP2ErrorCode(rawValue: 0xD)

    /// The 14 codes RFC 9113 defines, in order.
    package static let allKnown: [HTTP2ErrorCode] = (0...0xD).map { HTTP2ErrorCode(rawValue: $0) }

    /// The code's 32 bits.
    package let rawValue: UInt32

    /// The code of value `rawValue`, known or not.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Whether RFC 9113 defines this code.
    package var isKnown: Bool { rawValue <= 0xD }
}

extension HTTP2ErrorCode: CustomStringConvertible {
    /// The RFC's name (`PROTOCOL_ERROR`), or `unknown error code 0x…` for another value.
    package var description: String {
        let names = [
            "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
            "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
            "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
        ]
        return isKnown ? names[Int(rawValue)] : "unknown error code 0x\(String(rawValue, radix: 16))"
    }
}
