import BothamHTTP2Wire
import Foundation

@testable import BothamNetworkingNative

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives an ``HTTP2ClientConnection`` over a blocking loopback socket: the I/O the native client does on its
/// event loop, done the plainest way, so the interop tests check the state machine against real servers. Used on
/// one thread at a time (the tests run it through `Loopback.blocking`, on a dispatch thread); a send or a read
/// that waits more than 10 s fails (``TestSocket/connectLoopback(port:timeout:)``).
final class BlockingHTTP2Driver {
    /// A response as the events of its stream gave it.
    struct Response: Sendable {
        var status = 0
        var fields: [HPACKHeaderField] = []
        var body: [UInt8] = []
        var failure: HTTP2StreamFailure?
        var ended = false
    }

    var connection: HTTP2ClientConnection
    private let fd: Int32
    private let authority: String
    /// Every event so far, in order.
    private(set) var events: [HTTP2ConnectionEvent] = []
    /// The responses of the streams opened, by stream.
    private(set) var responses: [HTTP2StreamID: Response] = [:]
    /// The request body octets each stream has still to send.
    private var bodiesLeft: [HTTP2StreamID: ArraySlice<UInt8>] = [:]

    /// Connects to `address` (`127.0.0.1:PORT`) and sends the preface.
    init(_ address: String, configuration: HTTP2ConnectionConfiguration = HTTP2ConnectionConfiguration()) throws {
        let parts = address.split(separator: ":")
        guard parts.count == 2, parts[0] == "127.0.0.1", let port = UInt16(parts[1]) else {
            throw ScriptError("not a loopback address: \(address)")
        }
        guard let fd = TestSocket.connectLoopback(port: Int(port)) else {
            throw ScriptError("connect to \(address): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        authority = address
        connection = HTTP2ClientConnection(configuration: configuration)
        connection.start()
        try flush()
    }

    deinit {
        close(fd)
    }

    /// Runs one request on a new connection to `address` until its stream ends, on a dispatch thread (blocking
    /// socket calls must not hold a cooperative thread).
    static func exchange(
        _ address: String, _ method: String, _ path: String, body: [UInt8]? = nil,
        configuration: HTTP2ConnectionConfiguration = HTTP2ConnectionConfiguration()
    ) async throws -> Response? {
        try await Loopback.blocking {
            let driver = try BlockingHTTP2Driver(address, configuration: configuration)
            let stream = try driver.open(method, path, body: body)
            try driver.finish()
            return driver.responses[stream]
        }
    }

    /// Opens a stream: `method` on `path`, with `body` sent as the windows allow.
    @discardableResult
    func open(_ method: String, _ path: String, body: [UInt8]? = nil) throws -> HTTP2StreamID {
        let fields =
            [(":method", method), (":scheme", "http"), (":authority", authority), (":path", path)]
            + (body.map { [("content-length", "\($0.count)")] } ?? [])
        let stream = try connection.openStream(
            fields: fields.map { HPACKHeaderField(name: $0.0, value: $0.1) }, endStream: body == nil)
        responses[stream] = Response()
        if let body { bodiesLeft[stream] = body[...] }
        sendBodies()
        try flush()
        return stream
    }

    /// Reads and answers until every stream opened has ended or failed (or the connection has), within
    /// `seconds`.
    func finish(within seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while responses.values.contains(where: { !$0.ended && $0.failure == nil }), connection.failure == nil {
            guard Date() < deadline else {
                throw ScriptError("no end within \(seconds) s; events: \(events.suffix(8))")
            }
            var reader = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&reader, 1, 100) > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw ScriptError("the server closed the connection; events: \(events.suffix(8))") }
            handle(connection.receive(buffer[0..<count]))
            sendBodies()
            try flush()
        }
    }

    private func handle(_ new: [HTTP2ConnectionEvent]) {
        events += new
        for event in new {
            switch event {
            case .head(let stream, let status, let fields):
                responses[stream]?.status = status
                responses[stream]?.fields = fields
            case .data(let stream, let bytes):
                responses[stream]?.body += bytes
                // The consumer reads at once: the windows are granted again as fast as the server fills them.
                connection.consumed(bytes.count, on: stream)
            case .end(let stream):
                responses[stream]?.ended = true
            case .failed(let stream, let failure):
                responses[stream]?.failure = failure
            case .ready, .informational, .trailers, .writable, .pingAcknowledged, .goingAway, .closed:
                break
            }
        }
    }

    /// Sends what the windows allow of every body still waiting.
    private func sendBodies() {
        for (stream, left) in bodiesLeft {
            let sent = connection.send(left, on: stream, endStream: true)
            bodiesLeft[stream] = sent == left.count ? nil : left.dropFirst(sent)
        }
    }

    private func flush() throws {
        let bytes = connection.takeOutbound()
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, TestSocket.sendFlags) }
            guard written > 0 else { throw ScriptError("write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
