/// The parameters in force for one side of a connection (RFC 9113 §6.5.2): each starts at its initial value
/// and changes as that side's SETTINGS frames are applied. Unknown parameters are ignored.
package struct HTTP2Settings: Hashable, Sendable {
    /// The largest HPACK dynamic table the side's decoder allows (initially 4,096).
    package var headerTableSize: Int = 4096
    /// Whether the side accepts server push (initially true; we send false).
    package var enablePush: Bool = true
    /// How many streams the side lets its peer open at once (initially unlimited: nil).
    package var maxConcurrentStreams: Int?
    /// The flow-control window of each new stream (initially 65,535).
    package var initialWindowSize: Int = 65_535
    /// The largest frame payload the side accepts (initially 16,384).
    package var maxFrameSize: Int = 16_384
    /// The largest field section the side accepts, name + value + 32 per field (initially unlimited: nil).
    package var maxHeaderListSize: Int?

    /// The initial values of every connection.
    package init() {}

    /// Applies `setting` after checking its value (``HTTP2Setting/validate()``); an unknown parameter is
    /// ignored.
    package mutating func apply(_ setting: HTTP2Setting) throws(HTTP2FrameError) {
        try setting.validate()
        let value = Int(setting.value)
        switch setting.parameter {
        case .headerTableSize: headerTableSize = value
        case .enablePush: enablePush = value == 1
        case .maxConcurrentStreams: maxConcurrentStreams = value
        case .initialWindowSize: initialWindowSize = value
        case .maxFrameSize: maxFrameSize = value
        case .maxHeaderListSize: maxHeaderListSize = value
        default: return
        }
    }

    /// Applies a SETTINGS frame's parameters in order (§6.5.3: "processed in the order in which they appear").
    /// On an invalid value it throws, with the parameters before it applied.
    package mutating func apply(_ settings: [HTTP2Setting]) throws(HTTP2FrameError) {
        for setting in settings {
            try apply(setting)
        }
    }

    /// The parameters that differ from the initial values, in identifier order: what a SETTINGS frame has to
    /// carry to announce these settings.
    package var nonDefaultParameters: [HTTP2Setting] {
        let initial = HTTP2Settings()
        var parameters: [HTTP2Setting] = []
        if headerTableSize != initial.headerTableSize {
            parameters.append(HTTP2Setting(.headerTableSize, Self.wire(headerTableSize)))
        }
        if enablePush != initial.enablePush { parameters.append(HTTP2Setting(.enablePush, enablePush ? 1 : 0)) }
        if let maxConcurrentStreams {
            parameters.append(HTTP2Setting(.maxConcurrentStreams, Self.wire(maxConcurrentStreams)))
        }
        if initialWindowSize != initial.initialWindowSize {
            parameters.append(HTTP2Setting(.initialWindowSize, Self.wire(initialWindowSize)))
        }
        if maxFrameSize != initial.maxFrameSize {
            parameters.append(HTTP2Setting(.maxFrameSize, Self.wire(maxFrameSize)))
        }
        if let maxHeaderListSize {
            parameters.append(HTTP2Setting(.maxHeaderListSize, Self.wire(maxHeaderListSize)))
        }
        return parameters
    }

    /// `value` clamped to the 32 bits a parameter carries.
    private static func wire(_ value: Int) -> UInt32 {
        UInt32(clamping: value)
    }
}
