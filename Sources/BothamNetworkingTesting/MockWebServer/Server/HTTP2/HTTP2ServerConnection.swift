import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// One cleartext HTTP/2 connection of ``MockWebServer``, as its reader and its responders (one thread per
/// request) see it: frames go out whole, one writer at a time, with the field blocks encoded in the order they go
/// on the wire (the client's HPACK decoder depends on it), and DATA goes out only as the client's windows allow.
final class HTTP2ServerConnection: Sendable {
    let descriptor: Int32
    let wake: WakeSignal
    let state: ConditionLock<HTTP2ServerState>
    private let output: Lock<Output>
    private let bodyBytesWritten: Lock<Int>

    /// The encoders of what we send: the field compression context and the client's frame size limit; and our
    /// connection preface with the SETTINGS acknowledgements owed, which go out in front of the first write.
    private struct Output {
        var fields = HPACKEncoder()
        var frames = HTTP2FrameEncoder()
        /// Our preface (SETTINGS and the connection window's raise) until the first write sends it.
        var preface: [UInt8]?
        var owedAcknowledgements = 0
    }

    init(descriptor: Int32, wake: WakeSignal, bodyBytesWritten: Lock<Int>) {
        self.descriptor = descriptor
        self.wake = wake
        self.bodyBytesWritten = bodyBytesWritten
        state = ConditionLock(HTTP2ServerState())
        output = Lock(Output())
    }

    /// Writing and pausing on the socket (a reader of its own is never used: the session reads).
    var io: ConnectionIO { ConnectionIO(descriptor: descriptor, wake: wake) }

    // MARK: Writing

    /// Holds our connection preface (`frames`) back until the first write: a server may read the request before it
    /// writes (RFC 9113 §3.4 only asks that SETTINGS come first). A responder sends it as soon as its response is
    /// chosen (``releasePreface()``), unless that response is ``SocketPolicy/disconnectAtStart``, which then closes
    /// a new connection without sending a byte, as it does over HTTP/1.1. Any earlier frame (a PING answer, a
    /// window update for a request body) sends it too.
    func holdPreface(_ frames: [HTTP2Frame]) {
        output.withLock { output in
            var bytes: [UInt8] = []
            for frame in frames { try? output.frames.encode(frame, into: &bytes) }
            output.preface = bytes
        }
    }

    /// Acknowledges the client's SETTINGS: now if our preface went out, else right behind it.
    func acknowledgeSettings() throws(ConnectionIOError) {
        let owed = output.withLock { output in
            guard output.preface != nil else { return false }
            output.owedAcknowledgements += 1
            return true
        }
        if !owed { try send([HTTP2Frame(streamID: .connection, payload: .settings(.ack))]) }
    }

    /// Writes `frames`, in order, with no other frame between them.
    func send(_ frames: [HTTP2Frame]) throws(ConnectionIOError) {
        try write { output in
            var bytes: [UInt8] = []
            for frame in frames {
                // A frame the client's limits refuse is dropped (only DATA could be large, and it is cut to fit).
                try? output.frames.encode(frame, into: &bytes)
            }
            return bytes
        }
    }

    /// Writes a field block (`fields` in order, pseudo-fields first) as HEADERS and CONTINUATION frames.
    func sendHeaders(_ fields: [HPACKHeaderField], on stream: UInt32, endStream: Bool) throws(ConnectionIOError) {
        try write { output in
            let block = output.fields.encode(fields)
            var bytes: [UInt8] = []
            output.frames.encodeHeaders(
                streamID: HTTP2StreamID(stream), fieldBlock: block, endStream: endStream, into: &bytes)
            return bytes
        }
    }

    /// Sends `payload` on `stream` as DATA frames of at most `maxFrame` bytes (and the client's frame size), each
    /// waiting for credit in both of the client's windows, with END_STREAM on the last when `endStream`. Every
    /// payload byte the socket accepts is counted in the server's ``MockWebServer/responseBodyBytesWritten``.
    /// Returns `false`, having stopped, when the stream or the connection ended meanwhile.
    func sendData(_ payload: Data, on stream: UInt32, maxFrame: Int?, endStream: Bool) throws(ConnectionIOError)
        -> Bool
    {
        var offset = payload.startIndex
        repeat {
            let wanted = min(payload.endIndex - offset, max(1, maxFrame ?? Int.max))
            let granted = state.wait(
                until: { state in
                    wanted == 0 || state.hasEnded(stream)
                        || (state.connectionWindow > 0 && state.streamWindows[stream, default: 0] > 0)
                },
                then: { state -> Int? in
                    guard !state.hasEnded(stream) else { return nil }
                    // `wanted` is 0 only for an empty DATA frame (END_STREAM alone), which takes no credit.
                    let count =
                        wanted == 0
                        ? 0
                        : min(
                            wanted, state.maxFrameSize, state.connectionWindow, state.streamWindows[stream, default: 0])
                    state.connectionWindow -= count
                    state.streamWindows[stream, default: 0] -= count
                    return count
                })
            guard let granted else { return false }
            let end = offset + granted
            let frame = HTTP2Frame(
                streamID: HTTP2StreamID(stream),
                payload: .data(
                    .init(bytes: Array(payload[offset..<end]), endStream: endStream && end == payload.endIndex)))
            try send([frame])
            bodyBytesWritten.withLock { $0 += granted }
            offset = end
        } while offset < payload.endIndex
        return true
    }

    /// Encodes under the output lock and writes the bytes before letting the next writer encode.
    private func write(_ encode: (inout Output) -> [UInt8]) throws(ConnectionIOError) {
        let io = self.io
        let failure = output.withLock { output -> ConnectionIOError? in
            var bytes = encode(&output)
            if let preface = output.preface {
                var front = preface
                for _ in 0..<output.owedAcknowledgements {
                    try? output.frames.encode(HTTP2Frame(streamID: .connection, payload: .settings(.ack)), into: &front)
                }
                bytes = front + bytes
                output.preface = nil
                output.owedAcknowledgements = 0
            }
            return capturingFailure { () throws(ConnectionIOError) in try io.write(bytes) }
        }
        if let failure { throw failure }
    }

    // MARK: The client's settings

    /// Applies the client's SETTINGS to what we send.
    func apply(_ settings: HTTP2Settings) {
        output.withLock { output in
            output.fields.setPeerMaxTableSize(settings.headerTableSize)
            output.frames.maxFrameSize = settings.maxFrameSize
        }
        state.update { state in
            state.maxFrameSize = settings.maxFrameSize
            state.setInitialStreamWindow(settings.initialWindowSize)
        }
    }

    // MARK: Ending

    /// Ends the connection with FIN after what was written: the reader wakes to the end of the stream and every
    /// responder stops.
    func disconnect() {
        state.update { state in
            state.isClosed = true
            state.isClosedByServer = true
        }
        SystemCalls.shutdownBoth(descriptor)
    }

    /// Ends the connection with a TCP reset: nothing more is sent, and the reader's close sends RST.
    func reset() {
        state.update { state in
            state.isClosed = true
            state.isClosedByServer = true
        }
        SystemCalls.enableResetOnClose(descriptor)
        SystemCalls.shutdownReads(descriptor)
    }

    /// Waits, sending nothing, until the client resets `stream` or the connection ends. Returns whether the client
    /// hung up: reset the stream, or closed the connection (not the server shutting down or closing it itself).
    func waitUntilEnded(_ stream: UInt32) -> Bool {
        state.wait(
            until: { $0.hasEnded(stream) },
            then: { state in
                state.resetByClient.contains(stream) || (!state.isClosedByServer && !wake.isSignalled)
            })
    }

    /// Sends our held preface now, if it is still held (an empty write: only the preface goes out).
    func releasePreface() throws(ConnectionIOError) {
        try write { _ in [] }
    }
}
