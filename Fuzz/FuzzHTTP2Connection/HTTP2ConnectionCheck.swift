import BothamHTTP2Wire
import BothamNetworkingNative
import FuzzSupport

/// Properties of the HTTP/2 client connection for anything a server could send, interleaved with what a client
/// does. The first input byte picks our windows and header limit and whether a valid SETTINGS frame comes first
/// (to reach past the preface); then the input alternates a chunk of the server's octets and one client action
/// (consume, send body, cancel, ping, open a stream, close).
///
/// - it never traps or hangs;
/// - everything we write is well-formed: a server-side decoder reads our octets without an error;
/// - events only name streams we opened, and none comes for a stream after its end or failure;
/// - after ``HTTP2ConnectionEvent/closed(_:)`` nothing more comes, and the connection opens no stream;
/// - no stream may send a negative number of octets, and open streams never exceed the server's limit.
enum HTTP2ConnectionCheck {
    static let windows = [100, 65_535, 1 << 20]
    static let headerLimits = [64, 4_096, 64 * 1024]
    /// An empty SETTINGS frame: the server's preface.
    static let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let choice = input.byte()
        let configuration = HTTP2ConnectionConfiguration(
            streamWindow: windows[Int(choice & 0x03) % 3], connectionWindow: windows[Int((choice >> 2) & 0x03) % 3],
            maxHeaderListSize: headerLimits[Int((choice >> 4) & 0x03) % 3], assumedMaxConcurrentStreams: 4)
        var connection = HTTP2ClientConnection(configuration: configuration)
        connection.start()
        var server = ServerSide()
        server.read(connection.takeOutbound(), maxFrameSize: 16_384)
        var opened: [HTTP2StreamID] = []
        var ended = Set<HTTP2StreamID>()
        var closed = false
        for _ in 0..<2 {
            if let stream = try? connection.openStream(fields: request, endStream: opened.count.isMultiple(of: 2)) {
                opened.append(stream)
            }
        }
        if choice & 0x40 != 0 { check(connection.receive(settings), &connection, &opened, &ended, &closed, &server) }
        while !input.isAtEnd {
            let chunk = input.chunk(maxLength: 512)
            check(connection.receive(chunk), &connection, &opened, &ended, &closed, &server)
            act(input.byte(), &connection, &opened, &input)
            check(connection.takeEvents(), &connection, &opened, &ended, &closed, &server)
        }
    }

    static let request: [HPACKHeaderField] = [
        HPACKHeaderField(name: ":method", value: "POST"), HPACKHeaderField(name: ":scheme", value: "https"),
        HPACKHeaderField(name: ":authority", value: "fuzz.test"), HPACKHeaderField(name: ":path", value: "/"),
        HPACKHeaderField(name: "authorization", value: "Bearer secret"),
    ]

    /// One client action, picked by `byte`.
    static func act(
        _ byte: UInt8, _ connection: inout HTTP2ClientConnection, _ opened: inout [HTTP2StreamID],
        _ input: inout FuzzInput
    ) {
        let stream = opened.isEmpty ? HTTP2StreamID(1) : opened[Int(byte >> 3) % opened.count]
        switch byte & 0x07 {
        case 0: connection.consumed(Int(input.byte()) * 257, on: stream)
        case 1:
            let body = [UInt8](repeating: 0x78, count: Int(input.byte()) * 97)
            let sent = connection.send(body[...], on: stream, endStream: byte & 0x80 != 0)
            fuzzExpect(sent >= 0 && sent <= body.count, "send took \(sent) of \(body.count) octets")
        case 2: connection.cancel(stream)
        case 3: connection.ping(UInt64(byte))
        case 4:
            if let new = try? connection.openStream(fields: request, endStream: byte & 0x80 != 0) { opened.append(new) }
        case 5: connection.close()
        default: break
        }
    }

    /// Checks `events` and what the connection wrote.
    static func check(
        _ events: [HTTP2ConnectionEvent], _ connection: inout HTTP2ClientConnection, _ opened: inout [HTTP2StreamID],
        _ ended: inout Set<HTTP2StreamID>, _ closed: inout Bool, _ server: inout ServerSide
    ) {
        for event in events {
            fuzzExpect(!closed, "an event after the connection closed: \(event)")
            switch event {
            case .informational(let stream, _, _), .head(let stream, _, _), .data(let stream, _),
                .trailers(let stream, _):
                fuzzExpect(opened.contains(stream) && !ended.contains(stream), "\(event) on a stream not open")
            case .end(let stream), .failed(let stream, _):
                fuzzExpect(opened.contains(stream) && !ended.contains(stream), "\(event) on a stream not open")
                ended.insert(stream)
            case .closed:
                closed = true
            case .ready, .writable, .pingAcknowledged, .goingAway:
                break
            }
        }
        if closed { fuzzExpect(!connection.canOpenStream, "a closed connection would open a stream") }
        for stream in opened { fuzzExpect(connection.sendableBytes(on: stream) >= 0, "a negative sendable count") }
        fuzzExpect(connection.openStreamCount <= opened.count, "more open streams than were opened")
        server.read(connection.takeOutbound(), maxFrameSize: connection.remoteSettings.maxFrameSize)
    }

    /// A server's decoder of what we write: it must never find an error in it.
    struct ServerSide {
        private var decoder = HTTP2FrameDecoder()
        private var sawMagic = false

        mutating func read(_ bytes: [UInt8], maxFrameSize: Int) {
            var bytes = bytes[...]
            if !sawMagic {
                let magic = HTTP2ConnectionPreface.clientMagic
                fuzzExpect(bytes.starts(with: magic), "our octets did not start with the preface")
                bytes = bytes.dropFirst(magic.count)
                sawMagic = true
            }
            decoder.configuration.maxFrameSize = maxFrameSize
            decoder.configuration.maxHeaderBlockSize = 1 << 20
            decoder.append(bytes)
            do {
                while try decoder.nextFrame() != nil {}
            } catch {
                fuzzExpect(false, "a server cannot read what we wrote: \(error)")
            }
        }
    }
}
