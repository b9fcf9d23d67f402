/// One parameter of a SETTINGS frame (RFC 9113 §6.5.1): an identifier and a 32-bit value.
package struct HTTP2Setting: Hashable, Sendable {
    /// The smallest SETTINGS_MAX_FRAME_SIZE, 2^14, which is also every connection's initial value.
    package static let minimumMaxFrameSize: UInt32 = 1 << 14
    /// The largest SETTINGS_MAX_FRAME_SIZE, 2^24 − 1.
    package static let maximumMaxFrameSize: UInt32 = (1 << 24) - 1
    /// The largest flow-control window, 2^31 − 1 (§6.9.1).
    package static let maximumWindowSize: UInt32 = 0x7FFF_FFFF

    /// The parameter.
    package var parameter: HTTP2SettingsParameter
    /// Its value.
    package var value: UInt32

    /// `parameter` set to `value`.
    package init(_ parameter: HTTP2SettingsParameter, _ value: UInt32) {
        self.parameter = parameter
        self.value = value
    }

    /// Checks the value against §6.5.2: SETTINGS_ENABLE_PUSH other than 0 or 1 and SETTINGS_MAX_FRAME_SIZE outside
    /// 2^14…2^24 − 1 are connection errors of type PROTOCOL_ERROR, SETTINGS_INITIAL_WINDOW_SIZE above 2^31 − 1 one
    /// of type FLOW_CONTROL_ERROR. Every other value, and every unknown parameter, is valid.
    package func validate() throws(HTTP2FrameError) {
        switch parameter {
        case .enablePush where value > 1:
            throw .connection(.protocolError, .invalidSetting(self))
        case .initialWindowSize where value > Self.maximumWindowSize:
            throw .connection(.flowControlError, .invalidSetting(self))
        case .maxFrameSize where !(Self.minimumMaxFrameSize...Self.maximumMaxFrameSize).contains(value):
            throw .connection(.protocolError, .invalidSetting(self))
        default:
            return
        }
    }
}

extension HTTP2Setting: CustomStringConvertible {
    /// `SETTINGS_MAX_FRAME_SIZE = 16384`.
    package var description: String { "\(parameter) = \(value)" }
}
