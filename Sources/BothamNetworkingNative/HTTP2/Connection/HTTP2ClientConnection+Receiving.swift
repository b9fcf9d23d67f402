import BothamHTTP2Wire

extension HTTP2ClientConnection {
    /// Reads `bytes` the server sent and returns what its frames meant, in order (with any event a send left
    /// behind first). Answers SETTINGS and PING, and queues WINDOW_UPDATE, RST_STREAM or GOAWAY as the frames
    /// require: write ``takeOutbound()`` afterwards. After ``HTTP2ConnectionEvent/closed(_:)`` it reads nothing.
    package mutating func receive(_ bytes: some Collection<UInt8>) -> [HTTP2ConnectionEvent] {
        guard failure == nil else { return takeEvents() }
        decoder.append(bytes)
        while failure == nil {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                if !isEstablished, !isSettings(frame) {
                    fail(.protocolError, "the server's preface was a \(frame.type) frame, not SETTINGS")
                    break
                }
                handle(frame)
            } catch {
                switch error {
                case .connection(let code, .headerBlockTooLarge(let limit)):
                    fail(code, "a field block over our limit of \(limit) octets", as: .headTooLarge(limit: limit))
                case .connection(let code, let violation):
                    fail(code, "\(violation)")
                case .stream(let stream, let code, let violation):
                    reset(stream, code, "\(violation)")
                }
            }
        }
        return takeEvents()
    }

    private func isSettings(_ frame: HTTP2Frame) -> Bool {
        if case .settings(.parameters) = frame.payload { return true }
        return false
    }

    private mutating func handle(_ frame: HTTP2Frame) {
        switch frame.payload {
        case .settings(.parameters(let parameters)): apply(parameters)
        case .settings(.ack): isSettingsAcknowledged = true
        case .ping(let ping): answer(ping)
        case .goAway(let goAway): goingAway(goAway)
        case .windowUpdate(let increment): windowUpdate(increment, on: frame.streamID)
        case .rstStream(let code): resetByServer(frame.streamID, code)
        case .headers(let headers): fieldBlock(headers, on: frame.streamID)
        case .data(let payload): body(payload, on: frame.streamID)
        // PRIORITY is deprecated and ignored (§5.3.2); the decoder refuses PUSH_PROMISE (push is off) and joins
        // CONTINUATION to its HEADERS; unknown types are ignored (§5.5).
        case .priority, .pushPromise, .continuation, .unknown: break
        }
    }

    // MARK: Connection frames

    private mutating func apply(_ parameters: [HTTP2Setting]) {
        let oldWindow = remoteSettings.initialWindowSize
        do {
            try remoteSettings.apply(parameters)
        } catch {
            return fail(error.code, "\(error.violation)")
        }
        for setting in parameters where setting.parameter == .enableConnectProtocol {
            // RFC 8441 §3: 0 or 1, and never 0 after 1.
            guard setting.value <= 1, !(peerEnablesConnectProtocol && setting.value == 0) else {
                return fail(.protocolError, "the server sent \(setting) (RFC 8441 §3)")
            }
            peerEnablesConnectProtocol = setting.value == 1
        }
        // A new initial window changes every open stream's window by the difference (§6.9.2).
        let delta = remoteSettings.initialWindowSize - oldWindow
        if delta != 0 {
            for id in streams.keys {
                streams[id]?.sendWindow += delta
                if (streams[id]?.sendWindow ?? 0) > Int(HTTP2Setting.maximumWindowSize) {
                    return fail(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE took \(id)'s window past 2^31 - 1")
                }
            }
        }
        encoder.maxFrameSize = remoteSettings.maxFrameSize
        headerEncoder.setPeerMaxTableSize(remoteSettings.headerTableSize)
        queue(HTTP2Frame(streamID: .connection, payload: .settings(.ack)))
        if !isEstablished {
            isEstablished = true
            events.append(.ready)
        }
        if delta > 0, !streams.isEmpty { events.append(.writable) }
    }

    private mutating func answer(_ ping: HTTP2Frame.PingPayload) {
        if ping.ack {
            events.append(.pingAcknowledged(ping.opaqueData))
        } else {
            queue(HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: ping.opaqueData, ack: true))))
        }
    }

    private mutating func goingAway(_ goAway: HTTP2Frame.GoAwayPayload) {
        let last = min(goAway.lastStreamID, goAwayLastStreamID ?? .maximum)
        goAwayLastStreamID = last
        // Streams above the last one were never processed: safe to send again (§6.8).
        for id in streams.keys.sorted() where id > last {
            forget(id, failing: .refused)
        }
        let debug = String(decoding: goAway.debugData.prefix(256), as: UTF8.self)
        events.append(.goingAway(lastStreamID: last, code: goAway.errorCode, debug: debug))
        if goAway.errorCode != .noError, streams.isEmpty, failure == nil {
            failure = .goAway(goAway.errorCode, debug)
            events.append(.closed(.goAway(goAway.errorCode, debug)))
        }
    }

    private mutating func windowUpdate(_ increment: UInt32, on stream: HTTP2StreamID) {
        let limit = Int(HTTP2Setting.maximumWindowSize)
        if stream.isConnection {
            sendWindow += Int(increment)
            guard sendWindow <= limit else { return fail(.flowControlError, "the connection window passed 2^31 - 1") }
            return events.append(.writable)
        }
        guard var state = streams[stream] else {
            if isIdle(stream) { fail(.protocolError, "WINDOW_UPDATE on idle \(stream)") }
            return  // a stream that has closed: late frames are expected
        }
        state.sendWindow += Int(increment)
        streams[stream] = state
        guard state.sendWindow <= limit else {
            return reset(stream, .flowControlError, "its window passed 2^31 - 1")
        }
        events.append(.writable)
    }

    private mutating func resetByServer(_ stream: HTTP2StreamID, _ code: HTTP2ErrorCode) {
        guard streams[stream] != nil else {
            if isIdle(stream) { fail(.protocolError, "RST_STREAM on idle \(stream)") }
            return
        }
        forget(stream, failing: code == .refusedStream ? .refused : .reset(code))
    }

    // MARK: Stream frames

    private mutating func fieldBlock(_ headers: HTTP2Frame.HeadersPayload, on stream: HTTP2StreamID) {
        // Decoded whatever the stream's state: the HPACK table must stay in step with the server's (§4.3).
        let list: [HPACKHeaderField]
        do {
            list = try headerDecoder.decode(headers.fieldBlock)
        } catch .headerListTooLarge(let limit) {
            // The decoder read the whole block, so its table is in step: only this stream fails.
            guard streams[stream] != nil else {
                if isIdle(stream) { fail(.protocolError, "HEADERS on idle \(stream)") }
                return
            }
            queue(HTTP2Frame(streamID: stream, payload: .rstStream(.protocolError)))
            return forget(stream, failing: .headTooLarge(limit: limit))
        } catch {
            return fail(.compressionError, "a field block could not be decoded: \(error)")
        }
        guard var state = streams[stream] else {
            if isIdle(stream) { fail(.protocolError, "HEADERS on idle \(stream)") }
            return
        }
        guard !state.remoteEnded else { return reset(stream, .streamClosed, "HEADERS after the end of the stream") }
        let trailers = state.hasFinalHead
        let parsed: HTTP2ResponseFields
        switch HTTP2ResponseFields.parse(list, trailers: trailers) {
        case .success(let fields): parsed = fields
        case .failure(let malformed): return reset(stream, .protocolError, malformed.reason)
        }
        if trailers {
            guard headers.endStream else { return reset(stream, .protocolError, "trailers without END_STREAM") }
            events.append(.trailers(stream, fields: parsed.fields))
            return end(stream, state)
        }
        let status = parsed.status ?? 0
        if status < 200 {
            guard status != 101 else { return reset(stream, .protocolError, "a 101 response (no upgrade in HTTP/2)") }
            guard !headers.endStream else {
                return reset(stream, .protocolError, "a \(status) response ended the stream")
            }
            state.informationalCount += 1
            guard state.informationalCount <= HTTP2StreamState.maxInformationalResponses else {
                return reset(
                    stream, .enhanceYourCalm, "more than \(HTTP2StreamState.maxInformationalResponses) 1xx responses")
            }
            streams[stream] = state
            return events.append(.informational(stream, status: status, fields: parsed.fields))
        }
        state.hasFinalHead = true
        // A response to HEAD, a 204 and a 304 have no content whatever their content-length says (§8.1.1).
        let hasNoContent = state.isHeadRequest || status == 204 || status == 304
        state.expectedLength = hasNoContent ? 0 : parsed.contentLength
        streams[stream] = state
        events.append(.head(stream, status: status, fields: parsed.fields))
        if headers.endStream { end(stream, state) }
    }

    private mutating func body(_ data: HTTP2Frame.DataPayload, on stream: HTTP2StreamID) {
        // The connection window counts every DATA frame, on any stream, padding included (§6.9).
        guard receiveWindow.receive(data.flowControlledLength) else {
            return fail(.flowControlError, "DATA beyond the connection window")
        }
        let padding = data.flowControlledLength - data.bytes.count
        guard var state = streams[stream] else {
            if isIdle(stream) { return fail(.protocolError, "DATA on idle \(stream)") }
            // A stream we reset or that ended: nobody reads these octets, so they are consumed now.
            return consumed(data.flowControlledLength, on: stream)
        }
        // A rejected frame is nobody's to read: its octets go back to the connection's window at once.
        guard state.hasFinalHead else {
            return reject(data, on: stream, .protocolError, "DATA before the response head")
        }
        guard !state.remoteEnded else {
            return reject(data, on: stream, .streamClosed, "DATA after the end of the stream")
        }
        guard state.receiveWindow.receive(data.flowControlledLength) else {
            return reject(data, on: stream, .flowControlError, "DATA beyond the stream's window")
        }
        state.receivedLength += data.bytes.count
        streams[stream] = state
        if let expected = state.expectedLength, state.receivedLength > expected {
            return reject(data, on: stream, .protocolError, "more body than its content-length of \(expected)")
        }
        if padding > 0 { consumed(padding, on: stream) }
        if !data.bytes.isEmpty { events.append(.data(stream, data.bytes)) }
        if data.endStream, let current = streams[stream] { end(stream, current) }
    }

    /// Resets `stream` for a DATA frame it should not have had, and gives the frame's octets back to the
    /// connection's window (the stream is gone, so only the connection's counts them).
    private mutating func reject(
        _ data: HTTP2Frame.DataPayload, on stream: HTTP2StreamID, _ code: HTTP2ErrorCode, _ reason: String
    ) {
        reset(stream, code, reason)
        consumed(data.flowControlledLength, on: stream)
    }

    /// The server ended `stream`'s response: checks its length and reports the end.
    private mutating func end(_ stream: HTTP2StreamID, _ state: HTTP2StreamState) {
        if let expected = state.expectedLength, state.receivedLength != expected {
            return reset(
                stream, .protocolError, "\(state.receivedLength) body octets, not its content-length of \(expected)")
        }
        var ended = state
        ended.remoteEnded = true
        streams[stream] = ended
        events.append(.end(stream))
        closeIfDone(stream)
    }

    /// A stream error (§5.4.2): RST_STREAM with `code`, the stream reported malformed and forgotten.
    mutating func reset(_ stream: HTTP2StreamID, _ code: HTTP2ErrorCode, _ reason: String) {
        guard streams[stream] != nil else {
            if isIdle(stream) { fail(.protocolError, "\(reason) on idle \(stream)") }
            return
        }
        queue(HTTP2Frame(streamID: stream, payload: .rstStream(code)))
        forget(stream, failing: .malformed(code, reason))
    }

    /// Whether `stream` was never opened: a server stream (push is off) or a client stream we have not reached.
    func isIdle(_ stream: HTTP2StreamID) -> Bool {
        stream.isServerInitiated || stream.rawValue >= nextStreamID
    }
}
