import Testing

@testable import BothamHTTP2Wire

/// Every rule of RFC 9113 §4–§6 about one frame, broken: each violation is the error the RFC names, a connection
/// or a stream error as §5.4 classifies it, with its code, and never a trap.
@Suite("HTTP/2 frames: each violation is its typed error", .timeLimit(.minutes(1)))
struct HTTP2FrameDecoderErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var error: HTTP2FrameError
        var testDescription: String { name }
    }

    private static func frame(_ type: UInt8, _ flags: UInt8 = 0, stream: UInt32, _ hex: String = "") -> [UInt8] {
        HTTP2FrameTestSupport.raw(type: type, flags: flags, stream: stream, payload: HPACKTestSupport.bytes(hex))
    }

    static let streamIDCases: [Case] = [
        Case(
            name: "DATA on stream 0", bytes: frame(0x0, stream: 0, "61"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.data))),
        Case(
            name: "HEADERS on stream 0", bytes: frame(0x1, 0x04, stream: 0, "82"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.headers))),
        Case(
            name: "PRIORITY on stream 0", bytes: frame(0x2, stream: 0, "0000000110"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.priority))),
        Case(
            name: "RST_STREAM on stream 0", bytes: frame(0x3, stream: 0, "00000008"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.rstStream))),
        Case(
            name: "PUSH_PROMISE on stream 0", bytes: frame(0x5, 0x04, stream: 0, "0000000282"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.pushPromise))),
        Case(
            name: "CONTINUATION on stream 0", bytes: frame(0x9, 0x04, stream: 0, "82"),
            error: .connection(.protocolError, .streamIDMustNotBeZero(.continuation))),
        Case(
            name: "SETTINGS on stream 1", bytes: frame(0x4, stream: 1),
            error: .connection(.protocolError, .streamIDMustBeZero(.settings, 1))),
        Case(
            name: "PING on stream 3", bytes: frame(0x6, stream: 3, "0000000000000000"),
            error: .connection(.protocolError, .streamIDMustBeZero(.ping, 3))),
        Case(
            name: "GOAWAY on stream 5", bytes: frame(0x7, stream: 5, "0000000000000000"),
            error: .connection(.protocolError, .streamIDMustBeZero(.goAway, 5))),
    ]

    static let lengthCases: [Case] = [
        Case(
            name: "PRIORITY of 4 octets", bytes: frame(0x2, stream: 3, "00000001"),
            error: .stream(3, .frameSizeError, .wrongLength(.priority, length: 4, expected: 5))),
        Case(
            name: "PRIORITY of 6 octets", bytes: frame(0x2, stream: 3, "000000011000"),
            error: .stream(3, .frameSizeError, .wrongLength(.priority, length: 6, expected: 5))),
        Case(
            name: "RST_STREAM of 3 octets", bytes: frame(0x3, stream: 1, "000008"),
            error: .connection(.frameSizeError, .wrongLength(.rstStream, length: 3, expected: 4))),
        Case(
            name: "RST_STREAM of 5 octets", bytes: frame(0x3, stream: 1, "0000000800"),
            error: .connection(.frameSizeError, .wrongLength(.rstStream, length: 5, expected: 4))),
        Case(
            name: "PING of 7 octets", bytes: frame(0x6, stream: 0, "00000000000000"),
            error: .connection(.frameSizeError, .wrongLength(.ping, length: 7, expected: 8))),
        Case(
            name: "PING ACK of 9 octets", bytes: frame(0x6, 0x01, stream: 0, "000000000000000000"),
            error: .connection(.frameSizeError, .wrongLength(.ping, length: 9, expected: 8))),
        Case(
            name: "WINDOW_UPDATE of 3 octets on the connection", bytes: frame(0x8, stream: 0, "000001"),
            error: .connection(.frameSizeError, .wrongLength(.windowUpdate, length: 3, expected: 4))),
        Case(
            name: "WINDOW_UPDATE of 5 octets on a stream", bytes: frame(0x8, stream: 1, "0000000100"),
            error: .connection(.frameSizeError, .wrongLength(.windowUpdate, length: 5, expected: 4))),
        Case(
            name: "SETTINGS of 5 octets", bytes: frame(0x4, stream: 0, "0002000000"),
            error: .connection(.frameSizeError, .settingsLengthNotMultipleOfSix(length: 5))),
        Case(
            name: "SETTINGS of 7 octets", bytes: frame(0x4, stream: 0, "00020000000000"),
            error: .connection(.frameSizeError, .settingsLengthNotMultipleOfSix(length: 7))),
        Case(
            name: "SETTINGS ACK with a parameter", bytes: frame(0x4, 0x01, stream: 0, "000200000000"),
            error: .connection(.frameSizeError, .settingsAckWithPayload(length: 6))),
        Case(
            name: "GOAWAY of 7 octets", bytes: frame(0x7, stream: 0, "00000000000000"),
            error: .connection(.frameSizeError, .tooShort(.goAway, length: 7, minimum: 8))),
        Case(
            name: "PADDED DATA without its Pad Length octet", bytes: frame(0x0, 0x08, stream: 1),
            error: .connection(.frameSizeError, .tooShort(.data, length: 0, minimum: 1))),
        Case(
            name: "HEADERS with PRIORITY of 4 octets", bytes: frame(0x1, 0x24, stream: 1, "00000000"),
            error: .connection(.frameSizeError, .tooShort(.headers, length: 4, minimum: 5))),
        Case(
            name: "PADDED HEADERS with PRIORITY of 5 octets", bytes: frame(0x1, 0x2C, stream: 1, "0000000000"),
            error: .connection(.frameSizeError, .tooShort(.headers, length: 5, minimum: 6))),
        Case(
            name: "PUSH_PROMISE of 3 octets", bytes: frame(0x5, 0x04, stream: 1, "000000"),
            error: .connection(.frameSizeError, .tooShort(.pushPromise, length: 3, minimum: 4))),
    ]

    static let paddingCases: [Case] = [
        Case(
            name: "DATA with padding as long as its payload", bytes: frame(0x0, 0x08, stream: 1, "04000000"),
            error: .connection(.protocolError, .paddingTooLong(.data, padding: 4, available: 3))),
        Case(
            name: "DATA with padding longer than its payload", bytes: frame(0x0, 0x08, stream: 1, "05000000"),
            error: .connection(.protocolError, .paddingTooLong(.data, padding: 5, available: 3))),
        Case(
            name: "HEADERS with padding over the room the priority fields leave",
            bytes: frame(0x1, 0x2C, stream: 1, "0300000000100000"),
            error: .connection(.protocolError, .paddingTooLong(.headers, padding: 3, available: 2))),
        Case(
            name: "PUSH_PROMISE with padding over the room the promised stream leaves",
            bytes: frame(0x5, 0x0C, stream: 1, "020000000200"),
            error: .connection(.protocolError, .paddingTooLong(.pushPromise, padding: 2, available: 1))),
    ]

    static let settingsCases: [Case] = [
        Case(
            name: "SETTINGS_ENABLE_PUSH of 2", bytes: frame(0x4, stream: 0, "000200000002"),
            error: .connection(.protocolError, .invalidSetting(HTTP2Setting(.enablePush, 2)))),
        Case(
            name: "SETTINGS_ENABLE_PUSH of 1 from a server", bytes: frame(0x4, stream: 0, "000200000001"),
            error: .connection(.protocolError, .pushEnabledByServer)),
        Case(
            name: "SETTINGS_INITIAL_WINDOW_SIZE of 2^31", bytes: frame(0x4, stream: 0, "000480000000"),
            error: .connection(.flowControlError, .invalidSetting(HTTP2Setting(.initialWindowSize, 1 << 31)))),
        Case(
            name: "SETTINGS_MAX_FRAME_SIZE of 2^14 - 1", bytes: frame(0x4, stream: 0, "000500003fff"),
            error: .connection(.protocolError, .invalidSetting(HTTP2Setting(.maxFrameSize, 16_383)))),
        Case(
            name: "SETTINGS_MAX_FRAME_SIZE of 2^24", bytes: frame(0x4, stream: 0, "000501000000"),
            error: .connection(.protocolError, .invalidSetting(HTTP2Setting(.maxFrameSize, 1 << 24)))),
        Case(
            name: "an invalid parameter after valid ones", bytes: frame(0x4, stream: 0, "000300000064 000500000000"),
            error: .connection(.protocolError, .invalidSetting(HTTP2Setting(.maxFrameSize, 0)))),
    ]

    static let otherCases: [Case] = [
        Case(
            name: "WINDOW_UPDATE of 0 on a stream", bytes: frame(0x8, stream: 7, "00000000"),
            error: .stream(7, .protocolError, .zeroWindowIncrement)),
        Case(
            name: "WINDOW_UPDATE of 0 on the connection", bytes: frame(0x8, stream: 0, "00000000"),
            error: .connection(.protocolError, .zeroWindowIncrement)),
        Case(
            name: "WINDOW_UPDATE of 0 with the reserved bit set", bytes: frame(0x8, stream: 1, "80000000"),
            error: .stream(1, .protocolError, .zeroWindowIncrement)),
        Case(
            name: "PRIORITY making a stream depend on itself", bytes: frame(0x2, stream: 5, "8000000510"),
            error: .stream(5, .protocolError, .selfDependency(.priority))),
        Case(
            name: "HEADERS making its stream depend on itself (its field block must not go undecoded)",
            bytes: frame(0x1, 0x24, stream: 5, "000000051082"),
            error: .connection(.protocolError, .selfDependency(.headers))),
        Case(
            name: "PUSH_PROMISE while push is disabled", bytes: frame(0x5, 0x04, stream: 1, "0000000282"),
            error: .connection(.protocolError, .pushPromiseRefused(promised: 2))),
        Case(
            name: "PUSH_PROMISE of a client's stream", bytes: frame(0x5, 0x04, stream: 1, "0000000382"),
            error: .connection(.protocolError, .invalidPromisedStreamID(3))),
        Case(
            name: "PUSH_PROMISE of stream 0", bytes: frame(0x5, 0x04, stream: 1, "80000000"),
            error: .connection(.protocolError, .invalidPromisedStreamID(0))),
        Case(
            name: "CONTINUATION with nothing to continue", bytes: frame(0x9, 0x04, stream: 1, "82"),
            error: .connection(.protocolError, .unexpectedContinuation)),
        Case(
            name: "DATA over SETTINGS_MAX_FRAME_SIZE",
            bytes: HTTP2FrameTestSupport.raw(type: 0x0, stream: 1, payload: Array(repeating: 0, count: 16_385)),
            error: .connection(.frameSizeError, .frameTooLarge(.data, length: 16_385, limit: 16_384))),
        Case(
            name: "an unknown frame over SETTINGS_MAX_FRAME_SIZE",
            bytes: HTTP2FrameTestSupport.raw(type: 0xEE, stream: 1, payload: Array(repeating: 0, count: 20_000)),
            error: .connection(
                .frameSizeError, .frameTooLarge(HTTP2FrameType(rawValue: 0xEE), length: 20_000, limit: 16_384))),
        Case(
            name: "PRIORITY over SETTINGS_MAX_FRAME_SIZE on a stream",
            bytes: HTTP2FrameTestSupport.raw(type: 0x2, stream: 9, payload: Array(repeating: 0, count: 16_390)),
            error: .stream(9, .frameSizeError, .frameTooLarge(.priority, length: 16_390, limit: 16_384))),
    ]

    @Test(
        "A frame on the wrong kind of stream is a connection PROTOCOL_ERROR", arguments: streamIDCases)
    func streamIDs(testCase: Case) {
        #expect(HTTP2FrameTestSupport.error(testCase.bytes) == testCase.error)
    }

    @Test("A frame of the wrong length is a FRAME_SIZE_ERROR of the scope its type has", arguments: lengthCases)
    func lengths(testCase: Case) {
        #expect(HTTP2FrameTestSupport.error(testCase.bytes) == testCase.error)
    }

    @Test("Padding past the payload is a connection PROTOCOL_ERROR", arguments: paddingCases)
    func padding(testCase: Case) {
        #expect(HTTP2FrameTestSupport.error(testCase.bytes) == testCase.error)
    }

    @Test("An invalid SETTINGS value is the connection error §6.5.2 names", arguments: settingsCases)
    func settings(testCase: Case) {
        #expect(HTTP2FrameTestSupport.error(testCase.bytes) == testCase.error)
    }

    @Test("Window, priority, push and size violations are their errors", arguments: otherCases)
    func others(testCase: Case) {
        #expect(HTTP2FrameTestSupport.error(testCase.bytes) == testCase.error)
    }

    @Test("Every case also fails the same way fed one octet at a time")
    func bytewise() {
        let all = Self.streamIDCases + Self.lengthCases + Self.paddingCases + Self.settingsCases + Self.otherCases
        #expect(all.count == 47)
        for testCase in all {
            let outcome = HTTP2FrameTestSupport.decodeBytewise(testCase.bytes)
            #expect(outcome.error == testCase.error, "\(testCase.name)")
            #expect(outcome.frames.isEmpty, "\(testCase.name)")
        }
    }

    @Test("A frame over SETTINGS_MAX_FRAME_SIZE is refused from its 9-octet header, before its payload arrives")
    func oversizeFromHeader() {
        var decoder = HTTP2FrameDecoder()
        decoder.append(HTTP2FrameTestSupport.raw(type: 0x0, stream: 1, length: 0xFF_FFFF))
        #expect(
            throws: HTTP2FrameError.connection(.frameSizeError, .frameTooLarge(.data, length: 0xFF_FFFF, limit: 16_384))
        ) {
            try decoder.nextFrame()
        }
        #expect(decoder.bufferedByteCount == 9)
    }

    @Test("After a connection error every later call throws it again, whatever arrives")
    func connectionErrorIsFinal() throws {
        var decoder = HTTP2FrameDecoder()
        let expected = HTTP2FrameError.connection(.protocolError, .streamIDMustNotBeZero(.data))
        decoder.append(HTTP2FrameTestSupport.raw(type: 0x0, stream: 0, payload: [1]))
        #expect(throws: expected) { try decoder.nextFrame() }
        decoder.append(try HTTP2FrameEncoder().encode(HTTP2Frame(streamID: .connection, payload: .settings(.ack))))
        #expect(throws: expected) { try decoder.nextFrame() }
        #expect(decoder.failure == expected)
    }

    @Test("After a stream error the next frame decodes: the offending frame was skipped")
    func streamErrorGoesOn() throws {
        let ping = HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 42)))
        let pingBytes = try HTTP2FrameEncoder().encode(ping)
        for bad in [
            HTTP2FrameTestSupport.raw(type: 0x8, stream: 7, payload: [0, 0, 0, 0]),
            HTTP2FrameTestSupport.raw(type: 0x2, stream: 3, payload: [0, 0, 0, 1]),
            HTTP2FrameTestSupport.raw(type: 0x2, stream: 9, payload: Array(repeating: 7, count: 20_000)),
        ] {
            for outcome in [
                HTTP2FrameTestSupport.decode(bad + pingBytes),
                HTTP2FrameTestSupport.decode(bad + pingBytes, cuts: [5, 9, 100, 10_000, bad.count + 3]),
            ] {
                #expect(outcome.error?.isConnectionError == false)
                #expect(outcome.frames == [ping])
            }
        }
    }

    @Test("A frame up to a raised SETTINGS_MAX_FRAME_SIZE decodes; one past it does not")
    func raisedMaxFrameSize() {
        let body = Array(repeating: UInt8(9), count: 20_000)
        let configuration = HTTP2FrameDecoder.Configuration(maxFrameSize: 20_000)
        let fits = HTTP2FrameTestSupport.decode(
            HTTP2FrameTestSupport.raw(type: 0x0, stream: 1, payload: body), configuration: configuration)
        #expect(fits.frames == [HTTP2Frame(streamID: 1, payload: .data(.init(bytes: body)))])
        #expect(fits.error == nil)
        let over = HTTP2FrameTestSupport.error(
            HTTP2FrameTestSupport.raw(type: 0x0, stream: 1, payload: body + [0]), configuration: configuration)
        #expect(over == .connection(.frameSizeError, .frameTooLarge(.data, length: 20_001, limit: 20_000)))
        // Out of the range SETTINGS_MAX_FRAME_SIZE allows, the limit is read as the nearest bound.
        let low = HTTP2FrameTestSupport.error(
            HTTP2FrameTestSupport.raw(type: 0x0, stream: 1, payload: Array(repeating: 0, count: 16_385)),
            configuration: HTTP2FrameDecoder.Configuration(maxFrameSize: 10))
        #expect(low == .connection(.frameSizeError, .frameTooLarge(.data, length: 16_385, limit: 16_384)))
    }

    @Test("Errors and violations read as sentences naming the code and the numbers")
    func descriptions() {
        #expect(
            "\(HTTP2FrameError.connection(.frameSizeError, .wrongLength(.ping, length: 7, expected: 8)))"
                == "connection error FRAME_SIZE_ERROR: a PING frame of 7 octets, not 8")
        #expect(
            "\(HTTP2FrameError.stream(3, .protocolError, .zeroWindowIncrement))"
                == "stream 3 error PROTOCOL_ERROR: a WINDOW_UPDATE of 0")
        #expect(
            "\(HTTP2FrameViolation.continuationExpected(stream: 1, received: .data, on: 3))"
                == "a DATA frame on stream 3 inside the field block of stream 1")
        #expect(
            "\(HTTP2FrameViolation.invalidSetting(HTTP2Setting(.maxFrameSize, 0)))"
                == "an invalid setting SETTINGS_MAX_FRAME_SIZE = 0")
    }
}
