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
        /// The highest stream opened by the client (mirrored in the shared state for GOAWAY).
        var lastStream: UInt32 = 0
        /// The client's SETTINGS so far, each frame applied on top of the ones before.
        var peerSettings = HTTP2Settings()
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
                    // A stream error on a stream never opened (a bad PRIORITY) needs no RST_STREAM (§6.4).
                    if stream.rawValue <= lastStream { try resetStream(stream.rawValue, code) }
                } catch {
                    throw error
                }
            }
        }

        private mutating func handle(_ frame: HTTP2Frame) throws {
            let stream = frame.streamID.rawValue
            switch frame.payload {
            case .settings(.parameters(let parameters)):
                try peerSettings.apply(parameters)
                connection.apply(peerSettings)
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
                connection.state.update { state in
                    state.resetStreams.insert(stream)
                    state.resetByClient.insert(stream)
                }
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
                guard incoming[stream] == nil, try accept(stream) else { return }
                discarded.insert(stream)
                return try refuse(stream, status: 431, requestEnded: headers.endStream)
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
                guard try accept(stream) else { return }
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
                return try refuse(stream, status: 413, requestEnded: data.endStream)
            }
            incoming[stream] = request
            if data.endStream { try dispatch(stream) }
        }

        /// Opens `stream` for a request: a new client stream, above every earlier one, while no GOAWAY of ours
        /// has named the last. Returns whether it was accepted; a refused one was answered with RST_STREAM.
        private mutating func accept(_ stream: UInt32) throws -> Bool {
            guard stream > lastStream, stream & 1 == 1 else {
                // Not a new stream of the client's (§5.1.1): a connection error.
                try goAway(.protocolError, "HEADERS on stream \(stream), not a new client stream")
                throw ConnectionIOError.endOfStream
            }
            lastStream = stream
            let accepted = connection.state.update { state in
                guard !state.isGoingAway else { return false }
                state.lastStream = stream
                state.streamWindows[stream] = state.initialStreamWindow
                return true
            }
            if !accepted {
                discarded.insert(stream)
                try connection.send([HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .rstStream(.refusedStream))])
            }
            return accepted
        }

        /// Answers a request the server will not take with `status` and no content (flow control cannot hold it
        /// back), then ends the request's side of the stream with RST_STREAM NO_ERROR if the client is still
        /// sending (RFC 9113 §8.1).
        private mutating func refuse(_ stream: UInt32, status: Int, requestEnded: Bool) throws(ConnectionIOError) {
            try connection.sendHeaders(
                [
                    HPACKHeaderField(name: ":status", value: String(status)),
                    HPACKHeaderField(name: "content-length", value: "0"),
                ], on: stream, endStream: true)
            connection.state.update { $0.streamWindows[stream] = nil }
            if !requestEnded { try resetStream(stream, .noError) }
        }

        /// Ends the connection for a protocol error of the client's (RFC 9113 §5.4.1).
        private func goAway(_ code: HTTP2ErrorCode, _ reason: String) throws(ConnectionIOError) {
            let goAway = HTTP2Frame.GoAwayPayload(
                lastStreamID: HTTP2StreamID(lastStream), errorCode: code, debugData: Array(reason.utf8.prefix(256)))
            try connection.send([HTTP2Frame(streamID: .connection, payload: .goAway(goAway))])
        }

        /// Ends `stream` from our side: RST_STREAM with `code`; its request is dropped and its responder, if one
        /// runs, stops.
        private mutating func resetStream(_ stream: UInt32, _ code: HTTP2ErrorCode) throws(ConnectionIOError) {
            incoming[stream] = nil
            discarded.insert(stream)
            connection.state.update { _ = $0.resetStreams.insert(stream) }
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
                connection: connection, stream: stream, method: recorded.method,
                hangUps: core.clientClosedConnections)
            let index = nextResponder
            nextResponder += 1
            let connection = self.connection
            connection.state.update { $0.activeResponders += 1 }
            let core = self.core
            let connectionIndex = self.connectionIndex
            do {
                responders[index] = try ServerThread.spawn {
                    let token = core.responderStarted(connection: connectionIndex)
                    writer.send(respond())
                    let closes = connection.state.update { state in
                        state.activeResponders -= 1
                        state.streamWindows[stream] = nil
                        state.resetStreams.remove(stream)
                        state.resetByClient.remove(stream)
                        state.finishedResponders.append(index)
                        return state.isGoingAway && state.activeResponders == 0
                    }
                    if closes { connection.disconnect() }
                    core.responderEnded(token)
                }
            } catch {
                connection.state.update { $0.activeResponders -= 1 }
                try resetStream(stream, .internalError)
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
