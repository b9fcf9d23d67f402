import BothamHTTP2Wire

/// The client side of one HTTP/2 connection (RFC 9113), without I/O: it turns the octets the server sent into
/// ``HTTP2ConnectionEvent``s and our calls into the octets to send, which the owner writes to the socket
/// (``takeOutbound()``). One owner, one thread at a time (the event loop's).
///
/// - ``start()`` queues the preface: the magic, our SETTINGS (push off, our stream window and header limits) and a
///   WINDOW_UPDATE raising the connection window to ours.
/// - ``openStream(fields:endStream:)`` sends a request head; ``send(_:on:endStream:)`` as much of its body as the
///   server's windows allow (``HTTP2ConnectionEvent/writable`` says when to try the rest).
/// - ``receive(_:)`` reads the server's frames: answers SETTINGS and PING, applies WINDOW_UPDATE, checks every
///   response as §8.1.1 says, and keeps the HPACK state in step even for streams we already reset.
/// - ``consumed(_:on:)`` gives windows back as the consumer reads: the server sends no faster than we read.
/// - A protocol violation by the server ends the connection (GOAWAY with the code, §5.4.1) or only its stream
///   (RST_STREAM, §5.4.2), as the RFC classifies it.
package struct HTTP2ClientConnection: Sendable {
    /// What we announced and enforce.
    package let configuration: HTTP2ConnectionConfiguration
    var decoder: HTTP2FrameDecoder
    var encoder = HTTP2FrameEncoder()
    var headerDecoder: HPACKDecoder
    var headerEncoder: HPACKEncoder
    var outbound: [UInt8] = []
    /// The server's settings, as its SETTINGS frames said (the protocol's initial values until the first).
    package internal(set) var remoteSettings = HTTP2Settings()
    /// Whether the server's first SETTINGS frame has arrived (its connection preface, §3.4).
    package internal(set) var isEstablished = false
    /// Whether the server acknowledged our SETTINGS (RFC 9113 §6.5.3 expects it "as soon as possible").
    package internal(set) var isSettingsAcknowledged = false
    /// Whether the server's SETTINGS said SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 (RFC 8441 §3): it accepts extended
    /// CONNECT requests (`:protocol`, such as WebSockets over HTTP/2). Once 1, it stays 1 (0 after 1 is a
    /// PROTOCOL_ERROR, as is any value other than 0 or 1).
    package internal(set) var peerEnablesConnectProtocol = false
    var streams: [HTTP2StreamID: HTTP2StreamState] = [:]
    var nextStreamID: UInt32 = 1
    /// The connection's send window: request body octets we may still send on all streams together.
    var sendWindow = HTTP2ReceiveWindow.initialSize
    var receiveWindow: HTTP2ReceiveWindow
    /// The last stream the server's GOAWAY said it may process, once it sent one.
    package internal(set) var goAwayLastStreamID: HTTP2StreamID?
    /// Why the connection ended, once it has.
    package internal(set) var failure: HTTP2ConnectionFailure?
    /// Whether we sent GOAWAY (no new stream of ours).
    package internal(set) var isClosing = false
    /// Events not yet handed out: ``receive(_:)`` returns them, and ``takeEvents()`` after a send.
    var events: [HTTP2ConnectionEvent] = []

    /// A connection that will announce and enforce `configuration`; nothing is sent before ``start()``.
    package init(configuration: HTTP2ConnectionConfiguration = HTTP2ConnectionConfiguration()) {
        self.configuration = configuration
        decoder = HTTP2FrameDecoder(
            configuration: HTTP2FrameDecoder.Configuration(maxHeaderBlockSize: configuration.maxHeaderListSize))
        headerDecoder = HPACKDecoder(
            maxTableSize: configuration.headerTableSize, maxHeaderListSize: configuration.maxHeaderListSize)
        headerEncoder = HPACKEncoder(sensitiveNames: configuration.sensitiveFieldNames)
        receiveWindow = HTTP2ReceiveWindow(size: configuration.effectiveConnectionWindow)
    }

    /// Queues the client's connection preface (§3.4) and the WINDOW_UPDATE that raises the connection window to
    /// ours. Call once, before anything else is sent.
    package mutating func start() {
        outbound += encoder.clientPreface(settings: configuration.localSettings)
        let increment = receiveWindow.size - HTTP2ReceiveWindow.initialSize
        if increment > 0 {
            queue(HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: UInt32(increment))))
        }
    }

    /// The octets to write to the socket, in order; empties the queue.
    package mutating func takeOutbound() -> [UInt8] {
        defer { outbound.removeAll(keepingCapacity: true) }
        return outbound
    }

    /// How many octets wait in ``takeOutbound()``.
    package var outboundCount: Int { outbound.count }

    /// How many of our streams are open.
    package var openStreamCount: Int { streams.count }

    /// How many streams the server lets us have open at once (ours until its SETTINGS say).
    package var maxConcurrentStreams: Int {
        isEstablished
            ? remoteSettings.maxConcurrentStreams ?? Int(Int32.max)
            : min(remoteSettings.maxConcurrentStreams ?? Int(Int32.max), configuration.assumedMaxConcurrentStreams)
    }

    /// Whether ``openStream(fields:endStream:)`` would open a stream now.
    package var canOpenStream: Bool {
        failure == nil && !isClosing && goAwayLastStreamID == nil && streams.count < maxConcurrentStreams
            && nextStreamID <= HTTP2StreamID.maximum.rawValue
    }

    /// Whether the connection can take no new stream and has none left: the owner should close the socket.
    package var isFinished: Bool {
        failure != nil || ((isClosing || goAwayLastStreamID != nil) && streams.isEmpty)
    }

    /// Whether `stream` is open (not ended on both sides, not reset).
    package func isOpen(_ stream: HTTP2StreamID) -> Bool {
        streams[stream] != nil
    }

    /// Whether our side of `stream` has ended (END_STREAM went), or the stream is gone.
    package func hasEndedRequest(on stream: HTTP2StreamID) -> Bool {
        streams[stream]?.localEnded ?? true
    }

    /// Request body octets `stream` may send now: the smaller of its window and the connection's (0 for a stream
    /// that is not open or has ended its request).
    package func sendableBytes(on stream: HTTP2StreamID) -> Int {
        guard let state = streams[stream], !state.localEnded else { return 0 }
        return max(0, min(sendWindow, state.sendWindow))
    }

    /// The events that happened since the last call (a send can end a connection whose frames could not be
    /// written); ``receive(_:)`` returns them too.
    package mutating func takeEvents() -> [HTTP2ConnectionEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Appends a frame that fits by construction (our own control frames, DATA cut to the limit).
    mutating func queue(_ frame: HTTP2Frame) {
        do {
            try encoder.encode(frame, into: &outbound)
        } catch {
            // Unreachable: every frame queued is cut to the server's SETTINGS_MAX_FRAME_SIZE (at least 16,384) or is
            // a fixed-size control frame. Ending the connection is the safe answer if it ever were not.
            fail(.internalError, "could not encode \(frame.type): \(error)")
        }
    }

    /// Ends the connection with a connection error (§5.4.1): GOAWAY with `code`, every open stream failed, then
    /// ``HTTP2ConnectionEvent/closed(_:)`` (with `kind`, or else a protocol violation). Nothing is read or sent
    /// after it.
    mutating func fail(_ code: HTTP2ErrorCode, _ reason: String, as kind: HTTP2ConnectionFailure? = nil) {
        guard failure == nil else { return }
        let failure = kind ?? HTTP2ConnectionFailure.protocolViolation(code, reason)
        self.failure = failure
        // No server stream is ever accepted (push is off), so the last one we processed is 0.
        let goAway = HTTP2Frame.GoAwayPayload(
            lastStreamID: .connection, errorCode: code, debugData: Array(reason.utf8.prefix(256)))
        try? encoder.encode(HTTP2Frame(streamID: .connection, payload: .goAway(goAway)), into: &outbound)
        failAllStreams(.connectionClosed(failure))
        events.append(.closed(failure))
    }

    /// Forgets every open stream (in stream order) as ``forget(_:failing:)`` does.
    mutating func failAllStreams(_ failure: HTTP2StreamFailure) {
        for id in streams.keys.sorted() { forget(id, failing: failure) }
    }

    /// Forgets `stream` and reports it failed with `failure`, unless its response had already ended (its request
    /// body was still going): that one was reported ended, and only its request body stops. Every way a stream
    /// ends early (a connection error, GOAWAY, RST_STREAM from either side) goes through here.
    mutating func forget(_ stream: HTTP2StreamID, failing failure: HTTP2StreamFailure) {
        guard let state = streams.removeValue(forKey: stream) else { return }
        if !state.remoteEnded { events.append(.failed(stream, failure)) }
    }
}
