import Testing

@testable import BothamHTTP2Wire

/// The encoder: field blocks split at the peer's SETTINGS_MAX_FRAME_SIZE into HEADERS and CONTINUATION, any
/// other payload over it refused, only defined flags and zero padding written.
@Suite("HTTP/2 frames: the encoder", .timeLimit(.minutes(1)))
struct HTTP2FrameEncoderTests {
    /// The frame headers in `bytes`: (length, type, flags, stream).
    private static func headers(_ bytes: [UInt8]) -> [(Int, UInt8, UInt8, UInt32)] {
        var result: [(Int, UInt8, UInt8, UInt32)] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let stream = bytes[(offset + 5)..<(offset + 9)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            result.append((length, bytes[offset + 3], bytes[offset + 4], stream))
            offset += 9 + length
        }
        #expect(offset == bytes.count)
        return result
    }

    @Test("A block over one frame is split at the limit, END_HEADERS only on the last frame, END_STREAM on HEADERS")
    func splitsAtTheLimit() {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder().encodeHeaders(
            streamID: 3, fieldBlock: Array(repeating: 7, count: 16_384 * 2 + 100), endStream: true, into: &bytes)
        let frames = Self.headers(bytes)
        #expect(frames.map(\.0) == [16_384, 16_384, 100])
        #expect(frames.map(\.1) == [0x1, 0x9, 0x9])
        #expect(frames.map(\.2) == [0x01, 0x00, 0x04])
        #expect(frames.map(\.3) == [3, 3, 3])
    }

    @Test("Priority fields and padding count against the first frame's room")
    func overheadInFirstFrame() {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder().encodeHeaders(
            streamID: 1, fieldBlock: Array(repeating: 7, count: 20_000), endStream: false,
            priority: HTTP2Priority(dependency: 0), padding: 10, into: &bytes)
        let frames = Self.headers(bytes)
        #expect(frames.map(\.0) == [16_384, 20_000 - (16_384 - 5 - 11)])
        #expect(frames.map(\.2) == [0x28, 0x04])
    }

    @Test("A block that fits goes as one HEADERS with END_HEADERS; a raised limit lets a larger one fit")
    func fitsInOne() {
        var bytes: [UInt8] = []
        HTTP2FrameEncoder().encodeHeaders(streamID: 1, fieldBlock: [0x82], endStream: false, into: &bytes)
        #expect(HPACKTestSupport.hex(bytes) == "00000101040000000182")
        var large: [UInt8] = []
        HTTP2FrameEncoder(maxFrameSize: 1 << 20).encodeHeaders(
            streamID: 1, fieldBlock: Array(repeating: 1, count: 100_000), endStream: false, into: &large)
        #expect(Self.headers(large).map(\.0) == [100_000])
    }

    @Test("A payload over the peer's limit is refused and nothing is written")
    func refusesOversize() throws {
        let encoder = HTTP2FrameEncoder()
        var buffer: [UInt8] = [0xAA]
        let data = HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array(repeating: 0, count: 16_384), padding: 0)))
        #expect(throws: HTTP2FrameEncodingError.frameTooLarge(.data, length: 16_385, limit: 16_384)) {
            try encoder.encode(data, into: &buffer)
        }
        #expect(buffer == [0xAA])
        let fits = HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array(repeating: 0, count: 16_384))))
        try encoder.encode(fits, into: &buffer)
        #expect(buffer.count == 1 + 9 + 16_384)
        #expect(
            "\(HTTP2FrameEncodingError.frameTooLarge(.goAway, length: 20_000, limit: 16_384))"
                == "a GOAWAY payload of 20000 octets is over the peer's SETTINGS_MAX_FRAME_SIZE of 16384")
        // Out of SETTINGS_MAX_FRAME_SIZE's range, the limit is read as the nearest bound.
        #expect(HTTP2FrameEncoder(maxFrameSize: 1).effectiveMaxFrameSize == 16_384)
        #expect(HTTP2FrameEncoder(maxFrameSize: .max).effectiveMaxFrameSize == 0xFF_FFFF)
    }

    @Test("Padding is written as zeros and the reserved bits as 0")
    func zerosAndReservedBits() throws {
        let bytes = try HTTP2FrameEncoder().encode(
            HTTP2Frame(streamID: .maximum, payload: .data(.init(bytes: [0xFF], padding: 4))))
        #expect(HPACKTestSupport.hex(bytes) == "00000600087fffffff04ff00000000")
        let update = try HTTP2FrameEncoder().encode(
            HTTP2Frame(streamID: 1, payload: .windowUpdate(windowIncrement: 0xFFFF_FFFF)))
        #expect(HPACKTestSupport.hex(update) == "0000040800000000017fffffff")
        #expect(HTTP2StreamID(0xFFFF_FFFF) == .maximum)
    }

    @Test("Stream identifiers: 0 is the connection, odd ones a client's, even ones a server's")
    func streamIDs() {
        #expect(HTTP2StreamID.connection.isConnection)
        #expect(HTTP2StreamID(1).isClientInitiated && !HTTP2StreamID(1).isServerInitiated)
        #expect(HTTP2StreamID(2).isServerInitiated && !HTTP2StreamID(2).isClientInitiated)
        #expect(!HTTP2StreamID.connection.isServerInitiated && !HTTP2StreamID.connection.isClientInitiated)
        #expect(HTTP2StreamID(3) < HTTP2StreamID(5))
        #expect("\(HTTP2StreamID(7)) \(HTTP2StreamID.connection)" == "stream 7 connection")
    }
}
