import BothamHTTP2Wire
import Foundation

/// A client speaking cleartext HTTP/2 frame by frame over a ``RawHTTPConnection``, for the tests of
/// `MockWebServer`'s HTTP/2 side: it writes exactly the frames a test gives and reads the server's one at a time.
final class RawHTTP2Connection: @unchecked Sendable {
    // @unchecked: used by one test at a time, from one thread at a time (each read runs to its end before the next).
    let raw: RawHTTPConnection
    private var fieldEncoder = HPACKEncoder()
    private var fieldDecoder = HPACKDecoder()
    private let frameEncoder = HTTP2FrameEncoder()
    private var frameDecoder = HTTP2FrameDecoder(configuration: .init(maxFrameSize: 1 << 20))

    /// Connects to `port` and sends the client preface with empty SETTINGS (every initial value).
    init(port: Int) throws {
        raw = try RawHTTPConnection(port: port)
        try raw.write(frameEncoder.clientPreface(settings: HTTP2Settings()))
    }

    /// Sends `frames` in one write.
    func send(_ frames: [HTTP2Frame]) throws {
        var bytes: [UInt8] = []
        for frame in frames { try frameEncoder.encode(frame, into: &bytes) }
        try raw.write(bytes)
    }

    /// Sends a request's field block on `stream` (pseudo-fields first, as given).
    func sendHeaders(_ fields: [(String, String)], on stream: UInt32, endStream: Bool) throws {
        let block = fieldEncoder.encode(fields.map { HPACKHeaderField(name: $0.0, value: $0.1) })
        var bytes: [UInt8] = []
        frameEncoder.encodeHeaders(
            streamID: HTTP2StreamID(stream), fieldBlock: block, endStream: endStream, into: &bytes)
        try raw.write(bytes)
    }

    /// The server's next frame (waiting up to `timeout`).
    func nextFrame(timeout: Duration = .seconds(5)) throws -> HTTP2Frame {
        while true {
            if let frame = try frameDecoder.nextFrame() { return frame }
            let header = try raw.blockingReadBytes(9, timeout: timeout)
            let length: Int = (Int(header[0]) << 16) | (Int(header[1]) << 8) | Int(header[2])
            frameDecoder.append(header + (try raw.blockingReadBytes(length, timeout: timeout)))
        }
    }

    /// Decodes a field block of the server's, as names and values.
    func fields(of headers: HTTP2Frame.HeadersPayload) throws -> [String: String] {
        var fields: [String: String] = [:]
        for field in try fieldDecoder.decode(headers.fieldBlock) {
            fields[String(decoding: field.name, as: UTF8.self)] = String(decoding: field.value, as: UTF8.self)
        }
        return fields
    }

    /// Reads the server's frames until `stream`'s response ends (END_STREAM), answering nothing: its fields (the
    /// final head's) and body, and the frames of other kinds seen on the way.
    func response(on stream: UInt32, timeout: Duration = .seconds(5)) throws
        -> (fields: [String: String], body: [UInt8], others: [HTTP2Frame])
    {
        var fields: [String: String] = [:]
        var body: [UInt8] = []
        var others: [HTTP2Frame] = []
        while true {
            let frame = try nextFrame(timeout: timeout)
            switch frame.payload {
            case .headers(let headers) where frame.streamID.rawValue == stream:
                fields = try self.fields(of: headers)
                if headers.endStream { return (fields, body, others) }
            case .data(let data) where frame.streamID.rawValue == stream:
                body += data.bytes
                if data.endStream { return (fields, body, others) }
            default:
                others.append(frame)
            }
        }
    }
}
