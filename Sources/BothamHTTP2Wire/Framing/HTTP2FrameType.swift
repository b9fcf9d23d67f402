/// The type of a frame (RFC 9113 §4.1, §6; the registry of §11.2): the ten of RFC 9113, and any other value
/// kept as it is, since a frame of an unknown type is ignored (§4.1, §5.5), not an error.
package struct HTTP2FrameType: RawRepresentable, Hashable, Sendable {
    /// DATA (§6.1): a stream's content.
    package static let data = HTTP2FrameType(rawValue: 0x0)
    /// HEADERS (§6.2): opens a stream and carries a field block fragment.
    package static let headers = HTTP2FrameType(rawValue: 0x1)
    /// PRIORITY (§6.3): deprecated priority signals, parsed and ignored.
    package static let priority = HTTP2FrameType(rawValue: 0x2)
    /// RST_STREAM (§6.4): ends a stream at once.
    package static let rstStream = HTTP2FrameType(rawValue: 0x3)
    /// SETTINGS (§6.5): the sender's parameters, or an acknowledgement of the peer's.
    package static let settings = HTTP2FrameType(rawValue: 0x4)
    /// PUSH_PROMISE (§6.6): a server's promise of a stream; we disable push, so receiving one is an error.
    package static let pushPromise = HTTP2FrameType(rawValue: 0x5)
    /// PING (§6.7): a round trip, or the answer to one.
    package static let ping = HTTP2FrameType(rawValue: 0x6)
    /// GOAWAY (§6.8): the connection ends; streams above its last stream identifier were never processed.
    package static let goAway = HTTP2FrameType(rawValue: 0x7)
    /// WINDOW_UPDATE (§6.9): flow-control credit for a stream or the connection.
    package static let windowUpdate = HTTP2FrameType(rawValue: 0x8)
    /// CONTINUATION (§6.10): the rest of a field block.
    package static let continuation = HTTP2FrameType(rawValue: 0x9)

    /// The type's octet.
    package let rawValue: UInt8

    /// The type of octet `rawValue`.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Whether RFC 9113 defines this type (0x0–0x9).
    package var isKnown: Bool { rawValue <= 0x9 }
}

extension HTTP2FrameType: CustomStringConvertible {
    /// The RFC's name (`HEADERS`), or `type 0x2a` for another type.
    package var description: String {
        let names = [
            "DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING", "GOAWAY",
            "WINDOW_UPDATE", "CONTINUATION",
        ]
        return isKnown ? names[Int(rawValue)] : "type 0x\(String(rawValue, radix: 16))"
    }
}
