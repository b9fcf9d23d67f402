import Testing

@testable import BothamHTTP2Wire

/// Frames written out by hand from the layouts of RFC 9113 §4.1 and §6: each decodes to its fields and encodes
/// back to the same octets.
@Suite("HTTP/2 frames: hand-written vectors from the RFC's figures", .timeLimit(.minutes(1)))
struct HTTP2FrameVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var name: String
        var hex: String
        var frame: HTTP2Frame
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "DATA, END_STREAM", hex: "000005 00 01 00000001 68656c6c6f",
            frame: HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array("hello".utf8), endStream: true)))),
        Vector(
            name: "DATA, PADDED with 2 octets", hex: "000005 00 08 00000003 02 6869 0000",
            frame: HTTP2Frame(streamID: 3, payload: .data(.init(bytes: Array("hi".utf8), padding: 2)))),
        Vector(
            name: "DATA, empty, PADDED with 0 octets", hex: "000001 00 09 00000003 00",
            frame: HTTP2Frame(streamID: 3, payload: .data(.init(bytes: [], endStream: true, padding: 0)))),
        Vector(
            name: "DATA, empty, its padding filling the payload", hex: "000005 00 08 00000001 04 00000000",
            frame: HTTP2Frame(streamID: 1, payload: .data(.init(bytes: [], padding: 4)))),
        Vector(
            name: "HEADERS, END_STREAM and END_HEADERS", hex: "000003 01 05 00000001 828684",
            frame: HTTP2Frame(
                streamID: 1, payload: .headers(.init(fieldBlock: [0x82, 0x86, 0x84], endStream: true)))),
        Vector(
            name: "HEADERS, PADDED and PRIORITY (exclusive on stream 3, weight 16)",
            hex: "00000b 01 2c 00000005 03 80000003 0f 8286 000000",
            frame: HTTP2Frame(
                streamID: 5,
                payload: .headers(
                    .init(
                        fieldBlock: [0x82, 0x86], priority: HTTP2Priority(exclusive: true, dependency: 3, weight: 15),
                        padding: 3)))),
        Vector(
            name: "HEADERS without END_HEADERS", hex: "000001 01 00 00000007 82",
            frame: HTTP2Frame(streamID: 7, payload: .headers(.init(fieldBlock: [0x82], endHeaders: false)))),
        Vector(
            name: "PRIORITY, not exclusive", hex: "000005 02 00 00000009 00000007 ff",
            frame: HTTP2Frame(streamID: 9, payload: .priority(HTTP2Priority(dependency: 7, weight: 255)))),
        Vector(
            name: "RST_STREAM, CANCEL", hex: "000004 03 00 00000005 00000008",
            frame: HTTP2Frame(streamID: 5, payload: .rstStream(.cancel))),
        Vector(
            name: "SETTINGS, ENABLE_PUSH 0 and INITIAL_WINDOW_SIZE 65535",
            hex: "00000c 04 00 00000000 0002 00000000 0004 0000ffff",
            frame: HTTP2Frame(
                streamID: .connection,
                payload: .settings(
                    .parameters([HTTP2Setting(.enablePush, 0), HTTP2Setting(.initialWindowSize, 65_535)]))
            )),
        Vector(
            name: "SETTINGS, empty", hex: "000000 04 00 00000000",
            frame: HTTP2Frame(streamID: .connection, payload: .settings(.parameters([])))),
        Vector(
            name: "SETTINGS, ACK", hex: "000000 04 01 00000000",
            frame: HTTP2Frame(streamID: .connection, payload: .settings(.ack))),
        Vector(
            name: "PUSH_PROMISE of stream 2, END_HEADERS", hex: "000007 05 04 00000001 00000002 828487",
            frame: HTTP2Frame(
                streamID: 1, payload: .pushPromise(.init(promisedStreamID: 2, fieldBlock: [0x82, 0x84, 0x87])))),
        Vector(
            name: "PING", hex: "000008 06 00 00000000 0102030405060708",
            frame: HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 0x0102_0304_0506_0708)))),
        Vector(
            name: "PING, ACK", hex: "000008 06 01 00000000 ffffffffffffffff",
            frame: HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: .max, ack: true)))),
        Vector(
            name: "GOAWAY, last stream 7, NO_ERROR, debug data", hex: "00000b 07 00 00000000 00000007 00000000 627965",
            frame: HTTP2Frame(
                streamID: .connection,
                payload: .goAway(.init(lastStreamID: 7, errorCode: .noError, debugData: Array("bye".utf8))))),
        Vector(
            name: "GOAWAY, an unknown error code kept as it came", hex: "000008 07 00 00000000 7fffffff 0000abcd",
            frame: HTTP2Frame(
                streamID: .connection,
                payload: .goAway(.init(lastStreamID: .maximum, errorCode: HTTP2ErrorCode(rawValue: 0xABCD))))),
        Vector(
            name: "WINDOW_UPDATE of the connection", hex: "000004 08 00 00000000 7fffffff",
            frame: HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 0x7FFF_FFFF))),
        Vector(
            name: "WINDOW_UPDATE of a stream", hex: "000004 08 00 00000003 00010000",
            frame: HTTP2Frame(streamID: 3, payload: .windowUpdate(windowIncrement: 65_536))),
        Vector(
            name: "CONTINUATION, END_HEADERS", hex: "000002 09 04 00000001 8486",
            frame: HTTP2Frame(streamID: 1, payload: .continuation(.init(fieldBlockFragment: [0x84, 0x86])))),
        Vector(
            name: "an unknown type with flags", hex: "000003 2a f0 00000001 010203",
            frame: HTTP2Frame(
                streamID: 1,
                payload: .unknown(.init(type: HTTP2FrameType(rawValue: 0x2A), flags: 0xF0, bytes: [1, 2, 3])))),
    ]

    @Test("Each vector decodes to its frame", arguments: vectors)
    func decodes(vector: Vector) throws {
        var decoder = HTTP2FrameDecoder(configuration: .init(acceptsPushPromise: true))
        decoder.append(HPACKTestSupport.bytes(vector.hex))
        if case .continuation = vector.frame.payload {
            // Never delivered alone: it continues nothing here.
            #expect(throws: HTTP2FrameError.connection(.protocolError, .unexpectedContinuation)) {
                try decoder.nextFrame()
            }
            return
        }
        if case .headers(let headers) = vector.frame.payload, !headers.endHeaders {
            #expect(try decoder.nextFrame() == nil)
            #expect(decoder.isInsideFieldBlock)
            return
        }
        #expect(try decoder.nextFrame() == vector.frame)
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("Each vector's frame encodes to its octets", arguments: vectors)
    func encodes(vector: Vector) throws {
        let bytes = try HTTP2FrameEncoder().encode(vector.frame)
        #expect(HPACKTestSupport.hex(bytes) == HPACKTestSupport.hex(HPACKTestSupport.bytes(vector.hex)))
    }

    @Test("The reserved bits of stream identifiers, GOAWAY and WINDOW_UPDATE are ignored on receipt")
    func reservedBitsIgnored() throws {
        let bytes = HPACKTestSupport.bytes(
            "000004 08 00 80000003 80000001  000008 07 00 80000000 80000005 00000000  000000 04 01 80000000")
        let outcome = HTTP2FrameTestSupport.decode(bytes)
        #expect(outcome.error == nil)
        #expect(
            outcome.frames == [
                HTTP2Frame(streamID: 3, payload: .windowUpdate(windowIncrement: 1)),
                HTTP2Frame(streamID: .connection, payload: .goAway(.init(lastStreamID: 5, errorCode: .noError))),
                HTTP2Frame(streamID: .connection, payload: .settings(.ack)),
            ])
    }

    @Test("The client preface is the magic octets and a SETTINGS frame of the non-default settings")
    func clientPreface() {
        var settings = HTTP2Settings()
        settings.enablePush = false
        settings.initialWindowSize = 1 << 20
        let preface = HTTP2FrameEncoder().clientPreface(settings: settings)
        #expect(Array(preface.prefix(24)) == Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8))
        #expect(
            HPACKTestSupport.hex(Array(preface.dropFirst(24)))
                == HPACKTestSupport.hex(HPACKTestSupport.bytes("00000c 04 00 00000000 0002 00000000 0004 00100000")))
        #expect(
            HPACKTestSupport.hex(Array(HTTP2FrameEncoder().clientPreface(settings: HTTP2Settings()).dropFirst(24)))
                == "000000040000000000")
    }
}
