import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// Serves one connection that opened with the HTTP/2 connection preface (cleartext HTTP/2 with prior knowledge,
/// RFC 9113 §3.3), on the connection's thread: it reads every frame, answers SETTINGS and PING, keeps the windows,
/// assembles each request, records it in arrival order and answers it on a thread of its own, so a slow or held
/// response never holds another stream back.
///
/// Our SETTINGS allow 256 concurrent streams, windows of 4 MiB (the connection's raised to 16 MiB), and header
/// lists of ``MockWebServer/Configuration/maxHeaderBytes``; a request over it gets `431`, a body over
/// ``MockWebServer/Configuration/maxBodyBytes`` `413` (then RST_STREAM NO_ERROR, RFC 9113 §8.1). A protocol error
/// of the client ends the connection with GOAWAY and its code.
struct HTTP2ServerSession {
    let core: ServerCore
    let descriptor: Int32
    let connectionIndex: Int

    static let maxConcurrentStreams = 256
    static let streamWindow = 4 << 20
    static let connectionWindow = 16 << 20
    static let windowUpdateThreshold = 32 * 1024

    /// Runs until the connection ends (a reset is arranged by ``HTTP2ServerConnection/reset()`` before it does).
    func run(io: inout ConnectionIO) {
        let connection = HTTP2ServerConnection(
            descriptor: descriptor, wake: core.wake, bodyBytesWritten: core.responseBodyBytesWritten)
        var reader = Reader(core: core, connection: connection, connectionIndex: connectionIndex)
        reader.serve(io: &io)
        connection.state.update { $0.isClosed = true }
        reader.joinResponders(all: true)
    }

    /// The reading side: the decoders, the requests being received, the responder threads.
    private struct Reader {
        let core: ServerCore
        let connection: HTTP2ServerConnection
        let connectionIndex: Int
        var frames = HTTP2FrameDecoder()
        var fields: HPACKDecoder
        var incoming: [UInt32: HTTP2IncomingRequest] = [:]
        /// Streams whose request was refused or reset: their remaining frames are ignored.
        var discarded: Set<UInt32> = []
        var lastStream: UInt32 = 0
        /// DATA octets received since the connection's window was last granted back.
        var unacknowledgedConnectionBytes = 0
        var requestCount = 0
        var responders: [Int: ServerThread] = [:]
        var nextResponder = 0

        init(core: ServerCore, connection: HTTP2ServerConnection, connectionIndex: Int) {
            self.core = core
            self.connection = connection
            self.connectionIndex = connectionIndex
            fields = HPACKDecoder(maxHeaderListSize: core.configuration.maxHeaderBytes)
            frames.configuration.maxHeaderBlockSize = max(64 * 1024, core.configuration.maxHeaderBytes)
        }

        mutating func serve(io: inout ConnectionIO) {
            do {
                _ = try io.readBytes(HTTP2ConnectionPreface.clientMagic.count)
                sendPreface()
                while let bytes = try io.readAvailable() {
                    frames.append(bytes)
                    while let frame = try nextFrame() {
                        try handle(frame)
                    }
                    joinResponders(all: false)
                }
            } catch let error as HTTP2FrameError {
                try? goAway(error.code, "\(error.violation)")
            } catch {
                // The connection ended, or the server is shutting down.
            }
        }

        private func sendPreface() {
            var settings = HTTP2Settings()
            settings.enablePush = false
            settings.maxConcurrentStreams = HTTP2ServerSession.maxConcurrentStreams
            settings.initialWindowSize = HTTP2ServerSession.streamWindow
            settings.maxHeaderListSize = core.configuration.maxHeaderBytes
            let raise = UInt32(HTTP2ServerSession.connectionWindow - 65_535)
            connection.holdPreface([
                HTTP2Frame(streamID: .connection, payload: .settings(.parameters(settings.nonDefaultParameters))),
                HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: raise)),
            ])
        }

        /// The next frame; a stream error is answered with RST_STREAM and decoding goes on.
        private mutating func nextFrame() throws -> HTTP2Frame? {
            while true {
                do {
                    return try frames.nextFrame()
                } catch .stream(let stream, let code, _) {
                    try resetStream(stream.rawValue, code)
                } catch {
                    throw error
                }
            }
        }

        private mutating func handle(_ frame: HTTP2Frame) throws {
            let stream = frame.streamID.rawValue
            switch frame.payload {
            case .settings(.parameters(let parameters)):
                var settings = HTTP2Settings()
                settings.initialWindowSize = connection.state.withLock { $0.initialStreamWindow }
                try settings.apply(parameters)
                connection.apply(settings)
                try connection.acknowledgeSettings()
            case .ping(let ping) where !ping.ack:
                let answer = HTTP2Frame.PingPayload(opaqueData: ping.opaqueData, ack: true)
                try connection.send([HTTP2Frame(streamID: .connection, payload: .ping(answer))])
            case .windowUpdate(let increment):
                connection.state.update { state in
                    if stream == 0 {
                        state.connectionWindow += Int(increment)
                    } else if state.streamWindows[stream] != nil {
                        state.streamWindows[stream, default: 0] += Int(increment)
                    }
                }
            case .rstStream:
                incoming[stream] = nil
                discarded.insert(stream)
                connection.state.update { _ = $0.resetStreams.insert(stream) }
            case .headers(let headers):
                try receiveHeaders(headers, on: stream)
            case .data(let data):
                try receiveData(data, on: stream)
            default:
                // SETTINGS and PING acknowledgements, PRIORITY, GOAWAY, frames of unknown types: nothing to do.
                break
            }
        }

        private mutating func receiveHeaders(_ headers: HTTP2Frame.HeadersPayload, on stream: UInt32) throws {
            let decoded: [HPACKHeaderField]
            do {
                decoded = try fields.decode(headers.fieldBlock)
            } catch .headerListTooLarge {
                discarded.insert(stream)
                lastStream = max(lastStream, stream)
                return try refuse(stream, status: 431, "Request header section too large")
            } catch {
                // The decoder's table is out of step with the client's encoder: nothing more can be read.
                try goAway(.compressionError, "\(error)")
                throw ConnectionIOError.endOfStream
            }
            guard !discarded.contains(stream) else { return }
            if var request = incoming[stream] {
                request.trailers = decoded
                incoming[stream] = request
            } else {
                guard stream > lastStream, stream & 1 == 1 else { return try resetStream(stream, .protocolError) }
                lastStream = stream
                incoming[stream] = HTTP2IncomingRequest(fields: decoded)
            }
            if headers.endStream { try dispatch(stream) }
        }

        /// Takes a DATA frame: its bytes join the request's body. We read at once, so each window is granted back
        /// every ``windowUpdateThreshold`` octets: half the initial 65,535, the windows the client has until our
        /// SETTINGS arrive (they wait for our first response, ``HTTP2ServerConnection/holdPreface(_:)``).
        private mutating func receiveData(_ data: HTTP2Frame.DataPayload, on stream: UInt32) throws {
            var updates = [HTTP2Frame]()
            unacknowledgedConnectionBytes += data.flowControlledLength
            if unacknowledgedConnectionBytes >= HTTP2ServerSession.windowUpdateThreshold {
                let credit = UInt32(unacknowledgedConnectionBytes)
                updates.append(HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: credit)))
                unacknowledgedConnectionBytes = 0
            }
            guard var request = incoming[stream] else {
                if !updates.isEmpty { try connection.send(updates) }
                return
            }
            request.unacknowledgedBytes += data.flowControlledLength
            if !data.endStream, request.unacknowledgedBytes >= HTTP2ServerSession.windowUpdateThreshold {
                let credit = UInt32(request.unacknowledgedBytes)
                updates.append(
                    HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .windowUpdate(windowIncrement: credit)))
                request.unacknowledgedBytes = 0
            }
            if !updates.isEmpty { try connection.send(updates) }
            request.body += data.bytes
            guard request.body.count <= core.configuration.maxBodyBytes else {
                incoming[stream] = nil
                discarded.insert(stream)
                try refuse(stream, status: 413, "Request body too large")
                return try resetStream(stream, .noError)
            }
            incoming[stream] = request
            if data.endStream { try dispatch(stream) }
        }

        /// Answers a request the server will not take, as the HTTP/1.1 side does: a short plain-text response.
        private func refuse(_ stream: UInt32, status: Int, _ message: String) throws(ConnectionIOError) {
            let body = Array((message + "\n").utf8)
            try connection.sendHeaders(
                [
                    HPACKHeaderField(name: ":status", value: String(status)),
                    HPACKHeaderField(name: "content-type", value: "text/plain; charset=utf-8"),
                    HPACKHeaderField(name: "content-length", value: String(body.count)),
                ], on: stream, endStream: false)
            try connection.send([
                HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .data(.init(bytes: body, endStream: true)))
            ])
        }

        /// Ends the connection for a protocol error of the client's (RFC 9113 §5.4.1).
        private func goAway(_ code: HTTP2ErrorCode, _ reason: String) throws(ConnectionIOError) {
            let goAway = HTTP2Frame.GoAwayPayload(
                lastStreamID: HTTP2StreamID(lastStream), errorCode: code, debugData: Array(reason.utf8.prefix(256)))
            try connection.send([HTTP2Frame(streamID: .connection, payload: .goAway(goAway))])
        }

        private func resetStream(_ stream: UInt32, _ code: HTTP2ErrorCode) throws(ConnectionIOError) {
            try connection.send([HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .rstStream(code))])
        }

        /// Records the whole request and answers it on a thread of its own.
        private mutating func dispatch(_ stream: UInt32) throws {
            guard let request = incoming.removeValue(forKey: stream) else { return }
            let recorded: RecordedRequest
            do {
                recorded = try request.record(sequenceNumber: requestCount, connectionIndex: connectionIndex)
            } catch {
                return try resetStream(stream, .protocolError)
            }
            requestCount += 1
            let respond = core.reserve(recorded)
            let writer = HTTP2ResponseWriter(
                connection: connection, stream: stream, method: recorded.method, lastStream: lastStream,
                hangUps: core.clientClosedConnections)
            let index = nextResponder
            nextResponder += 1
            let connection = self.connection
            connection.state.update { state in
                state.activeResponders += 1
                state.streamWindows[stream] = state.initialStreamWindow
            }
            do {
                responders[index] = try ServerThread.spawn {
                    writer.send(respond())
                    let closes = connection.state.update { state in
                        state.activeResponders -= 1
                        state.streamWindows[stream] = nil
                        state.finishedResponders.append(index)
                        return state.isGoingAway && state.activeResponders == 0
                    }
                    if closes { connection.disconnect() }
                }
            } catch {
                connection.state.update { $0.activeResponders -= 1 }
                try resetStream(stream, .refusedStream)
            }
        }

        /// Joins the responders that finished (`all`: every one, waiting for them).
        mutating func joinResponders(all: Bool) {
            let finished = connection.state.withLock { state in
                defer { state.finishedResponders.removeAll() }
                return state.finishedResponders
            }
            for index in finished {
                responders.removeValue(forKey: index)?.join()
            }
            guard all else { return }
            for thread in responders.values { thread.join() }
            responders.removeAll()
        }
    }
}
