import BothamHTTP2Wire

extension HTTP2ClientConnection {
    /// Opens a stream with a request head: HEADERS (and CONTINUATION) carrying `fields`, pseudo-fields first
    /// (`:method`, `:scheme`, `:authority`, `:path`), with END_STREAM when `endStream` (a request without body).
    ///
    /// - Throws: why no stream was opened (nothing was sent).
    package mutating func openStream(
        fields: [HPACKHeaderField], endStream: Bool
    ) throws(HTTP2StreamOpenError) -> HTTP2StreamID {
        if failure != nil { throw .closed }
        if isClosing || goAwayLastStreamID != nil { throw .goingAway }
        guard nextStreamID <= HTTP2StreamID.maximum.rawValue else { throw .streamIDsExhausted }
        guard streams.count < maxConcurrentStreams else { throw .tooManyStreams(limit: maxConcurrentStreams) }
        if let limit = remoteSettings.maxHeaderListSize {
            let size = fields.reduce(0) { $0 + $1.size }
            guard size <= limit else { throw .fieldsTooLarge(size: size, limit: limit) }
        }
        let id = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        let block = headerEncoder.encode(fields)
        encoder.encodeHeaders(streamID: id, fieldBlock: block, endStream: endStream, into: &outbound)
        var state = HTTP2StreamState(
            sendWindow: remoteSettings.initialWindowSize,
            receiveWindow: HTTP2ReceiveWindow(size: configuration.effectiveStreamWindow))
        state.localEnded = endStream
        state.isHeadRequest = fields.contains { $0.name == Self.methodName && $0.value == Self.head }
        streams[id] = state
        return id
    }

    private static let methodName = Array(":method".utf8)
    private static let head = Array("HEAD".utf8)

    /// Sends as much of `bytes` as the server's windows allow, in DATA frames no larger than its
    /// SETTINGS_MAX_FRAME_SIZE, with END_STREAM on the last when all of them went and `endStream` is set (empty
    /// `bytes` with `endStream` send an empty DATA frame with END_STREAM). Returns how many octets went: send the
    /// rest after ``HTTP2ConnectionEvent/writable``. Nothing goes on a stream that is not open or already ended.
    package mutating func send(_ bytes: ArraySlice<UInt8>, on stream: HTTP2StreamID, endStream: Bool) -> Int {
        guard failure == nil, var state = streams[stream], !state.localEnded else { return 0 }
        let allowed = min(bytes.count, max(0, min(sendWindow, state.sendWindow)))
        let ends = endStream && allowed == bytes.count
        guard allowed > 0 || ends else { return 0 }
        let frameLimit = encoder.effectiveMaxFrameSize
        var offset = bytes.startIndex
        let end = bytes.startIndex + allowed
        repeat {
            let next = min(end, offset + frameLimit)
            let payload = HTTP2Frame.DataPayload(bytes: bytes[offset..<next], endStream: ends && next == end)
            queue(HTTP2Frame(streamID: stream, payload: .data(payload)))
            offset = next
        } while offset < end
        // Encoding cannot fail for these frames; if it ever did, the connection has ended and forgotten the stream.
        guard failure == nil else { return 0 }
        sendWindow -= allowed
        state.sendWindow -= allowed
        state.localEnded = ends
        streams[stream] = state
        closeIfDone(stream)
        return allowed
    }

    /// Counts `count` response body octets of `stream` as read by the consumer (or dropped), granting the server
    /// more with WINDOW_UPDATE once half a window has been read: call it for every octet of every
    /// ``HTTP2ConnectionEvent/data(_:_:)``, also after the stream has ended or was cancelled (the connection's
    /// window counts them all).
    package mutating func consumed(_ count: Int, on stream: HTTP2StreamID) {
        connectionConsumed(count)
        streamConsumed(count, on: stream)
    }

    /// The connection's half of ``consumed(_:on:)``: `count` octets count as read for the connection's window only
    /// (a paused stream's octets, so that one slow reader never holds back the connection's other streams).
    package mutating func connectionConsumed(_ count: Int) {
        guard failure == nil, count > 0 else { return }
        if let increment = receiveWindow.consume(count) {
            queue(HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: increment)))
        }
    }

    /// The stream's half of ``consumed(_:on:)``: `count` octets of `stream` count as read for its window.
    package mutating func streamConsumed(_ count: Int, on stream: HTTP2StreamID) {
        guard failure == nil, count > 0 else { return }
        guard var state = streams[stream], !state.remoteEnded else { return }
        if let increment = state.receiveWindow.consume(count) {
            queue(HTTP2Frame(streamID: stream, payload: .windowUpdate(windowIncrement: increment)))
        }
        streams[stream] = state
    }

    /// Resets `stream` with `code` (CANCEL by default: the caller went away or left the body early) and forgets
    /// it; frames the server already sent on it are read and dropped. Nothing happens for a stream not open.
    package mutating func cancel(_ stream: HTTP2StreamID, code: HTTP2ErrorCode = .cancel) {
        guard failure == nil, streams.removeValue(forKey: stream) != nil else { return }
        queue(HTTP2Frame(streamID: stream, payload: .rstStream(code)))
    }

    /// Sends a PING carrying `payload`; the answer comes as ``HTTP2ConnectionEvent/pingAcknowledged(_:)``.
    package mutating func ping(_ payload: UInt64) {
        guard failure == nil else { return }
        queue(HTTP2Frame(streamID: .connection, payload: .ping(HTTP2Frame.PingPayload(opaqueData: payload))))
    }

    /// Ends the connection because the server did not acknowledge our SETTINGS in time: GOAWAY with
    /// SETTINGS_TIMEOUT (§6.5.3), every open stream failed.
    package mutating func failSettingsTimeout() {
        guard failure == nil, !isSettingsAcknowledged else { return }
        fail(.settingsTimeout, "the server did not acknowledge our SETTINGS in time")
    }

    /// Starts closing gracefully: GOAWAY with NO_ERROR, no new stream; the open ones may finish
    /// (``isFinished`` says when the socket may close).
    package mutating func close() {
        guard failure == nil, !isClosing else { return }
        isClosing = true
        let goAway = HTTP2Frame.GoAwayPayload(lastStreamID: .connection, errorCode: .noError)
        queue(HTTP2Frame(streamID: .connection, payload: .goAway(goAway)))
    }

    /// Forgets `stream` once both sides have ended it (§5.1: closed).
    mutating func closeIfDone(_ stream: HTTP2StreamID) {
        guard let state = streams[stream], state.localEnded, state.remoteEnded else { return }
        streams[stream] = nil
    }
}
