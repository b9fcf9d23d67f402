/// A SETTINGS parameter's identifier (RFC 9113 §6.5.2): the six of RFC 9113, and any other value kept as it
/// came, since an unknown or unsupported identifier is ignored (§6.5.2).
package struct HTTP2SettingsParameter: RawRepresentable, Hashable, Sendable {
    /// SETTINGS_HEADER_TABLE_SIZE (0x1): the largest HPACK dynamic table the sender's decoder allows.
    package static let headerTableSize = HTTP2SettingsParameter(rawValue: 0x1)
    /// SETTINGS_ENABLE_PUSH (0x2): 0 or 1, whether the sender accepts server push.
    package static let enablePush = HTTP2SettingsParameter(rawValue: 0x2)
    /// SETTINGS_MAX_CONCURRENT_STREAMS (0x3): how many streams the sender lets its peer open at once.
    package static let maxConcurrentStreams = HTTP2SettingsParameter(rawValue: 0x3)
    /// SETTINGS_INITIAL_WINDOW_SIZE (0x4): each new stream's flow-control window, at most 2^31 − 1.
    package static let initialWindowSize = HTTP2SettingsParameter(rawValue: 0x4)
    /// SETTINGS_MAX_FRAME_SIZE (0x5): the largest payload the sender accepts, 2^14 to 2^24 − 1.
    package static let maxFrameSize = HTTP2SettingsParameter(rawValue: 0x5)
    /// SETTINGS_MAX_HEADER_LIST_SIZE (0x6): the largest field section the sender accepts (advisory).
    package static let maxHeaderListSize = HTTP2SettingsParameter(rawValue: 0x6)
    /// SETTINGS_ENABLE_CONNECT_PROTOCOL (0x8, RFC 8441 §3): 0 or 1, whether the sender accepts the extended
    /// CONNECT (`:protocol`). Not one of RFC 9113's: ``HTTP2Settings`` ignores it; a client reads it itself.
    package static let enableConnectProtocol = HTTP2SettingsParameter(rawValue: 0x8)

    /// The identifier's 16 bits.
    package let rawValue: UInt16

    /// The parameter of identifier `rawValue`, known or not.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Whether RFC 9113 defines this identifier.
    package var isKnown: Bool { (0x1...0x6).contains(rawValue) }
}

extension HTTP2SettingsParameter: CustomStringConvertible {
    /// The RFC's name (`SETTINGS_MAX_FRAME_SIZE`), or `setting 0x…` for another identifier.
    package var description: String {
        let names = [
            "SETTINGS_HEADER_TABLE_SIZE", "SETTINGS_ENABLE_PUSH", "SETTINGS_MAX_CONCURRENT_STREAMS",
            "SETTINGS_INITIAL_WINDOW_SIZE", "SETTINGS_MAX_FRAME_SIZE", "SETTINGS_MAX_HEADER_LIST_SIZE",
        ]
        return isKnown ? names[Int(rawValue) - 1] : "setting 0x\(String(rawValue, radix: 16))"
    }
}
