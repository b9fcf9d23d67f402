import BothamHTTP2Wire
@testable import BothamNetworkingNative

/// The server side of an HTTP/2 connection test: writes the frames a test scripts (with an HPACK encoder of its
/// own, so field blocks are real) and reads back what the client sent.
struct ScriptedHTTP2Server {
    private var headerEncoder = HPACKEncoder()
    private var headerDecoder = HPACKDecoder()
    private var decoder = HTTP2FrameDecoder()
    private var sawMagic = false

    /// The frames in `bytes` the client sent (the preface's magic is checked and skipped the first time).
    mutating func read(_ bytes: [UInt8]) throws -> [HTTP2Frame] {
        var bytes = bytes[...]
        if !sawMagic {
            let magic = HTTP2ConnectionPreface.clientMagic
            guard bytes.starts(with: magic) else { throw ScriptError("the client did not start with the magic") }
            bytes = bytes.dropFirst(magic.count)
            sawMagic = true
        }
        decoder.append(bytes)
        var frames: [HTTP2Frame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The fields of a client field block.
    mutating func fields(of block: [UInt8]) throws -> [HPACKHeaderField] {
        try headerDecoder.decode(block)
    }

    /// One frame's octets, written whatever its size: a frame over the client's 16,384-octet limit reaches it
    /// and ends the connection with FRAME_SIZE_ERROR, never vanishes from the script.
    func frame(_ stream: UInt32, _ payload: HTTP2Frame.Payload) -> [UInt8] {
        let encoder = HTTP2FrameEncoder(maxFrameSize: Int(HTTP2Setting.maximumMaxFrameSize))
        return (try? encoder.encode(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: payload))) ?? []
    }

    /// A SETTINGS frame with `parameters`.
    func settings(_ parameters: [HTTP2Setting] = []) -> [UInt8] {
        frame(0, .settings(.parameters(parameters)))
    }

    /// HEADERS with `fields` (encoded by this server's HPACK encoder) on `stream`.
    mutating func headers(_ stream: UInt32, _ fields: [(String, String)], endStream: Bool = false) -> [UInt8] {
        let block = headerEncoder.encode(fields.map { HPACKHeaderField(name: $0.0, value: $0.1) })
        var bytes: [UInt8] = []
        HTTP2FrameEncoder().encodeHeaders(
            streamID: HTTP2StreamID(stream), fieldBlock: block, endStream: endStream, into: &bytes)
        return bytes
    }

    /// HEADERS with END_STREAM whose block is `:status: 200` and one literal field written as given (the HPACK
    /// encoder would lowercase its name): for fields a conforming encoder never writes.
    func literalHeaders(_ stream: UInt32, name: String, value: String) -> [UInt8] {
        // 0x88: :status 200 from the static table; 0x00: a literal without indexing, with a new name (RFC 7541 §6.2.2).
        let block =
            [0x88, 0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
        return frame(stream, .headers(.init(fieldBlock: block, endStream: true, endHeaders: true)))
    }

    /// DATA with `text` on `stream`.
    func data(_ stream: UInt32, _ text: String, endStream: Bool = false, padding: UInt8? = nil) -> [UInt8] {
        frame(stream, .data(.init(bytes: Array(text.utf8), endStream: endStream, padding: padding)))
    }

    /// DATA with `count` octets on `stream`.
    func data(_ stream: UInt32, count: Int, endStream: Bool = false) -> [UInt8] {
        frame(stream, .data(.init(bytes: [UInt8](repeating: 0x61, count: count), endStream: endStream)))
    }
}

/// A script that went wrong.
struct ScriptError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension HTTP2ClientConnection {
    /// A started connection whose server sent `settings` (acknowledged), with everything written so far taken.
    static func established(
        _ configuration: HTTP2ConnectionConfiguration = HTTP2ConnectionConfiguration(),
        server: inout ScriptedHTTP2Server, settings: [HTTP2Setting] = []
    ) throws -> HTTP2ClientConnection {
        var connection = HTTP2ClientConnection(configuration: configuration)
        connection.start()
        _ = try server.read(connection.takeOutbound())
        let events = connection.receive(server.settings(settings))
        guard events == [.ready] else { throw ScriptError("the server's SETTINGS gave \(events)") }
        _ = try server.read(connection.takeOutbound())
        return connection
    }

    /// A GET of `path` with END_STREAM.
    mutating func get(_ path: String = "/", extra: [(String, String)] = []) throws -> HTTP2StreamID {
        let fields = [(":method", "GET"), (":scheme", "http"), (":authority", "example.test"), (":path", path)] + extra
        return try openStream(fields: fields.map { HPACKHeaderField(name: $0.0, value: $0.1) }, endStream: true)
    }

    /// A POST of `path` whose body follows.
    mutating func post(_ path: String = "/") throws -> HTTP2StreamID {
        let fields = [(":method", "POST"), (":scheme", "http"), (":authority", "example.test"), (":path", path)]
        return try openStream(fields: fields.map { HPACKHeaderField(name: $0.0, value: $0.1) }, endStream: false)
    }
}

extension HPACKHeaderField {
    /// `name: value` as text.
    var text: String { "\(String(decoding: name, as: UTF8.self)): \(String(decoding: value, as: UTF8.self))" }
}
