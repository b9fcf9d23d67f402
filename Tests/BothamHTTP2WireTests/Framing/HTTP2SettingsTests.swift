import Testing

@testable import BothamHTTP2Wire

/// SETTINGS parameters (RFC 9113 §6.5.2): known ones applied and validated, unknown ones kept in the frame and
/// ignored when applied; unknown flags and frame types ignored too (§4.1, §5.5).
@Suite("HTTP/2 frames: settings, and what is ignored", .timeLimit(.minutes(1)))
struct HTTP2SettingsTests {
    @Test("The initial values are those of §6.5.2")
    func initialValues() {
        let settings = HTTP2Settings()
        #expect(settings.headerTableSize == 4_096)
        #expect(settings.enablePush)
        #expect(settings.maxConcurrentStreams == nil)
        #expect(settings.initialWindowSize == 65_535)
        #expect(settings.maxFrameSize == 16_384)
        #expect(settings.maxHeaderListSize == nil)
        #expect(settings.nonDefaultParameters.isEmpty)
    }

    @Test("Applying a frame's parameters sets each known one, in order; unknown ones change nothing")
    func apply() throws {
        var settings = HTTP2Settings()
        try settings.apply([
            HTTP2Setting(.headerTableSize, 0), HTTP2Setting(.enablePush, 0), HTTP2Setting(.maxConcurrentStreams, 100),
            HTTP2Setting(HTTP2SettingsParameter(rawValue: 0x8), 1), HTTP2Setting(.initialWindowSize, 0x7FFF_FFFF),
            HTTP2Setting(.maxFrameSize, 0xFF_FFFF), HTTP2Setting(.maxHeaderListSize, 8_192),
            HTTP2Setting(HTTP2SettingsParameter(rawValue: 0xFFFF), 12), HTTP2Setting(.maxConcurrentStreams, 50),
        ])
        var expected = HTTP2Settings()
        expected.headerTableSize = 0
        expected.enablePush = false
        expected.maxConcurrentStreams = 50
        expected.initialWindowSize = 0x7FFF_FFFF
        expected.maxFrameSize = 0xFF_FFFF
        expected.maxHeaderListSize = 8_192
        #expect(settings == expected)
        #expect(
            settings.nonDefaultParameters == [
                HTTP2Setting(.headerTableSize, 0), HTTP2Setting(.enablePush, 0),
                HTTP2Setting(.maxConcurrentStreams, 50),
                HTTP2Setting(.initialWindowSize, 0x7FFF_FFFF), HTTP2Setting(.maxFrameSize, 0xFF_FFFF),
                HTTP2Setting(.maxHeaderListSize, 8_192),
            ])
    }

    @Test(
        "An invalid value is the connection error §6.5.2 names, and the parameters before it stay applied",
        arguments: [
            (HTTP2Setting(.enablePush, 2), HTTP2ErrorCode.protocolError),
            (HTTP2Setting(.initialWindowSize, 0x8000_0000), .flowControlError),
            (HTTP2Setting(.initialWindowSize, .max), .flowControlError),
            (HTTP2Setting(.maxFrameSize, 16_383), .protocolError),
            (HTTP2Setting(.maxFrameSize, 0x100_0000), .protocolError),
        ])
    func invalid(setting: HTTP2Setting, code: HTTP2ErrorCode) {
        var settings = HTTP2Settings()
        #expect(throws: HTTP2FrameError.connection(code, .invalidSetting(setting))) {
            try settings.apply([HTTP2Setting(.maxConcurrentStreams, 7), setting])
        }
        #expect(settings.maxConcurrentStreams == 7)
    }

    @Test("The bounds themselves are valid")
    func bounds() throws {
        for setting in [
            HTTP2Setting(.enablePush, 1), HTTP2Setting(.initialWindowSize, 0x7FFF_FFFF),
            HTTP2Setting(.maxFrameSize, 16_384), HTTP2Setting(.maxFrameSize, 0xFF_FFFF),
            HTTP2Setting(.headerTableSize, .max), HTTP2Setting(HTTP2SettingsParameter(rawValue: 0), .max),
        ] {
            try setting.validate()
        }
    }

    @Test("A SETTINGS frame keeps unknown identifiers in order; applying it ignores them")
    func unknownIdentifiersInFrame() throws {
        let bytes = HPACKTestSupport.bytes("000012 04 00 00000000 0000 00000005 0003 00000064 abcd ffffffff")
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        let parameters = [
            HTTP2Setting(HTTP2SettingsParameter(rawValue: 0), 5), HTTP2Setting(.maxConcurrentStreams, 100),
            HTTP2Setting(HTTP2SettingsParameter(rawValue: 0xABCD), .max),
        ]
        #expect(outcome.frames == [HTTP2Frame(streamID: .connection, payload: .settings(.parameters(parameters)))])
        var settings = HTTP2Settings()
        try settings.apply(parameters)
        var expected = HTTP2Settings()
        expected.maxConcurrentStreams = 100
        #expect(settings == expected)
        #expect(
            "\(parameters[0].parameter) \(parameters[1].parameter)" == "setting 0x0 SETTINGS_MAX_CONCURRENT_STREAMS")
    }

    @Test("Flags a type does not define are ignored")
    func unknownFlags() {
        let bytes = HPACKTestSupport.bytes(
            "000002 00 f6 00000001 6869  000008 06 fe 00000000 0000000000000001  000000 04 fe 00000000"
                + "  000001 01 d2 00000003 82  000002 09 ff 00000003 8384")
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        #expect(outcome.error == nil)
        #expect(
            outcome.frames == [
                HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array("hi".utf8)))),
                HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 1))),
                HTTP2Frame(streamID: .connection, payload: .settings(.parameters([]))),
                HTTP2Frame(streamID: 3, payload: .headers(.init(fieldBlock: [0x82, 0x83, 0x84]))),
            ])
    }

    @Test("Frames of unknown types are delivered as unknown, to be ignored, on any stream")
    func unknownTypes() throws {
        let frames = (0xA...0xFF).map { type in
            HTTP2Frame(
                streamID: HTTP2StreamID(UInt32(type % 3)),
                payload: .unknown(
                    .init(type: HTTP2FrameType(rawValue: UInt8(type)), flags: UInt8(type), bytes: [UInt8(type)])))
        }
        let outcome = HTTP2FrameTestSupport.decode(try HTTP2FrameTestSupport.encode(frames))
        #expect(outcome.error == nil)
        #expect(outcome.frames == frames)
    }

    @Test("Error codes: the 14 of §7 have their names; any other value is kept as it came")
    func errorCodes() {
        #expect(HTTP2ErrorCode.allKnown.count == 14)
        #expect(HTTP2ErrorCode.allKnown.allSatisfy { $0.isKnown })
        #expect(HTTP2ErrorCode.allKnown.map(\.rawValue) == Array(0...13))
        #expect(HTTP2ErrorCode.http11Required.description == "HTTP_1_1_REQUIRED")
        #expect(HTTP2ErrorCode.noError.description == "NO_ERROR")
        #expect(HTTP2ErrorCode.enhanceYourCalm.rawValue == 0xB)
        let unknown = HTTP2ErrorCode(rawValue: 0xE)
        #expect(!unknown.isKnown)
        #expect(unknown.description == "unknown error code 0xe")
        #expect(Set(HTTP2ErrorCode.allKnown.map(\.description)).count == 14)
    }
}
