import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// One HTTP/2 connection shared by the calls to its origin: the socket's ``Connection``, the protocol's
/// ``HTTP2ClientConnection`` and a ``HTTP2StreamCarrier`` per exchange in flight. The pool keeps it while it takes
/// streams, hands a carrier to each call that fits under the server's `SETTINGS_MAX_CONCURRENT_STREAMS`, and closes
/// it after its idle timeout.
///
/// Server octets go into the protocol state machine; its events go to the carriers in the order they happened.
/// Events raised while one is being handled (a carrier that sends as it hears its response) wait their turn.
///
/// Loop-confined: every call is on the pool's loop thread.
final class HTTP2Session: ConnectionDelegate {
    let connection: Connection
    private var http2: HTTP2ClientConnection
    private var carriers: [HTTP2StreamID: HTTP2StreamCarrier] = [:]
    /// Carriers handed out and not yet given back, with or without a stream.
    private(set) var carrierCount = 0
    private weak var pool: ConnectionPool?
    private var queue: [HTTP2ConnectionEvent] = []
    private var handling = false
    private var flushScheduled = false
    private var neverIndexedNames: [String: Bool] = [:]
    private let loop: EventLoop
    /// Whether the session ended (the socket failed or closed, or the protocol finished): it takes nothing more.
    private(set) var isOver = false
    /// Whether the server sent GOAWAY: the streams it accepted finish, no new one opens.
    private(set) var isDraining = false
    /// The timer that closes the session once it has been unused for the pool's idle timeout.
    var idleTimer: UInt64?
    /// The watch over the server: SETTINGS acknowledged in time, keep-alive PINGs answered.
    private var watchTimer: UInt64?
    private var watchAt: UInt64 = 0
    private let settingsDeadline: UInt64
    /// When the server was last heard from.
    private var lastHeard: UInt64
    /// The keep-alive PING waiting for its answer: its payload and deadline.
    private var pendingPing: (payload: UInt64, deadline: UInt64)?
    /// Carriers waiting for the server's first SETTINGS before they choose what to send (an extended CONNECT may go
    /// only once the server said it takes one, RFC 8441 §3).
    private var settingsWaiters: [HTTP2StreamCarrier] = []

    /// The socket is not written to while this much is queued (the windows bound it; this bounds a slow reader).
    private static let socketQueueLimit = 1 << 20

    /// Takes over `connection`, ready and speaking HTTP/2, and sends the preface.
    init(connection: Connection, pool: ConnectionPool, loop: EventLoop) {
        self.connection = connection
        self.pool = pool
        self.loop = loop
        http2 = HTTP2ClientConnection(configuration: connection.settings.http2)
        let now = MonotonicClock.now()
        lastHeard = now
        settingsDeadline = now &+ connection.settings.http2SettingsTimeout
        connection.delegate = self
        connection.acknowledgesEveryRead = true
        http2.start()
        flush()
        armWatch()
    }

    /// Whether the request field `name` goes as a never-indexed literal (the client's redactor hides it),
    /// remembered per name (the first 256).
    func isNeverIndexed(_ name: HTTPFieldName) -> Bool {
        if let known = neverIndexedNames[name.canonicalName] { return known }
        let hidden = connection.settings.http2NeverIndexed.redacts(header: name)
        if neverIndexedNames.count < 256 { neverIndexedNames[name.canonicalName] = hidden }
        return hidden
    }

    /// Whether the server takes extended CONNECT requests (RFC 8441): `nil` until its first SETTINGS arrived, then
    /// whether they said SETTINGS_ENABLE_CONNECT_PROTOCOL = 1. The first SETTINGS decide: a server announces its
    /// extensions in its preface.
    var enablesConnectProtocol: Bool? {
        http2.isEstablished ? http2.peerEnablesConnectProtocol : nil
    }

    /// Tells `carrier` (``HTTP2StreamCarrier/peerSettingsArrived()``) once the server's first SETTINGS arrived, or
    /// fails it if the session ends first.
    func notifyWhenEstablished(_ carrier: HTTP2StreamCarrier) {
        if isOver {
            let reason = "the HTTP/2 connection ended before its SETTINGS"
            return carrier.failed(.refused(NativeTransportError(code: .closedByPeer, reason: reason)))
        }
        if http2.isEstablished { return carrier.peerSettingsArrived() }
        if settingsWaiters.isEmpty {
            // A server may hold its SETTINGS back until it hears more than our preface (RFC 9113 §3.4 lets it read
            // the first request first): a PING, which it must answer, and its SETTINGS come before the answer.
            http2.ping(Self.settingsNudge)
            drive()
        }
        settingsWaiters.append(carrier)
    }

    /// The payload of the PING that asks a server for its SETTINGS (`SETTINGS` in ASCII).
    private static let settingsNudge: UInt64 = 0x5345_5454_494E_4753

    /// Whether a call can have a stream now.
    var hasRoom: Bool { !isOver && !isDraining && http2.canOpenStream }

    /// A carrier for a call; `first` for the call that opened the connection (its timings show the opening).
    func makeCarrier(first: Bool) -> HTTP2StreamCarrier {
        carrierCount += 1
        return HTTP2StreamCarrier(session: self, opening: first ? connection.opening : ConnectionOpening())
    }

    /// Closes the session now (idle expiry, the client going away): GOAWAY, then the socket.
    func close() {
        guard !isOver else { return }
        http2.close()
        flushNow()
        end(failing: nil)
    }

    // MARK: For carriers

    func open(
        _ carrier: HTTP2StreamCarrier, fields: [HPACKHeaderField], endStream: Bool
    ) -> Result<HTTP2StreamID, HTTP2StreamOpenError> {
        guard !isOver else { return .failure(.closed) }
        do {
            let id = try http2.openStream(fields: fields, endStream: endStream)
            carriers[id] = carrier
            drive()
            armWatch()
            return .success(id)
        } catch {
            return .failure(error)
        }
    }

    func send(_ bytes: ArraySlice<UInt8>, on stream: HTTP2StreamID, endStream: Bool) -> Int {
        guard !isOver, connection.queuedBytes + http2.outboundCount < Self.socketQueueLimit else { return 0 }
        let sent = http2.send(bytes, on: stream, endStream: endStream)
        drive()
        return sent
    }

    /// Whether END_STREAM went on `stream` (or the stream is gone).
    func hasSentEnd(of stream: HTTP2StreamID) -> Bool {
        http2.hasEndedRequest(on: stream)
    }

    /// A paused stream's reader caught up: its window grows by what it read meanwhile.
    func streamConsumed(_ count: Int, on stream: HTTP2StreamID) {
        guard !isOver else { return }
        http2.streamConsumed(count, on: stream)
        drive()
    }

    /// A carrier is given back: its stream is reset if still open (the connection's window already counted
    /// everything it received).
    func carrierDone(_ carrier: HTTP2StreamCarrier) {
        carrierCount -= 1
        settingsWaiters.removeAll { $0 === carrier }
        if let stream = carrier.stream, !isOver {
            if carriers.removeValue(forKey: stream) != nil, http2.isOpen(stream) { http2.cancel(stream) }
            drive()
        }
        if !isOver { pool?.sessionHasRoom(self) }
    }

    // MARK: ConnectionDelegate

    func connectionIsReady(_ connection: Connection) {}

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        lastHeard = connection.lastProgress
        queue += http2.receive(bytes)
        drive()
    }

    func connection(_ connection: Connection, didFail failure: ConnectionFailure) {
        let error: NativeTransportError
        switch failure {
        case .endOfStream where !http2.isEstablished:
            // Closed without a byte of HTTP/2 (not even its SETTINGS): an empty reply, as a new HTTP/1.1
            // connection closed before any response is, and what a server that does not speak HTTP/2 does.
            return end(
                failing: .malformed(
                    NativeTransportError(
                        code: .malformedResponse,
                        reason: "the server closed the connection before its HTTP/2 preface (an empty reply)")))
        case .socket(let socketError): error = socketError
        default: error = NativeTransportError(code: .closedByPeer, reason: "the server closed the HTTP/2 connection")
        }
        end(failing: .socket(error))
    }

    func connectionDidDrain(_ connection: Connection) {
        for carrier in carriers.values where carrier.hasPendingUpload { carrier.pumpUpload() }
    }

    // MARK: Private

    /// Writes what the protocol queued at the end of the loop's iteration, so that the frames of every stream
    /// handled in it go out in one `send`.
    private func flush() {
        guard !flushScheduled, !isOver else { return }
        flushScheduled = true
        loop.atIterationEnd(self)
    }

    private func flushNow() {
        let outbound = http2.takeOutbound()
        if !outbound.isEmpty { connection.write(Data(outbound)) }
    }

    /// Writes what the protocol queued and handles its events in order (once: a nested call leaves them to the
    /// outer one).
    private func drive() {
        flush()
        queue += http2.takeEvents()
        guard !handling else { return }
        handling = true
        var index = 0
        while index < queue.count {
            handle(queue[index])
            index += 1
            flush()
            queue += http2.takeEvents()
        }
        queue.removeAll(keepingCapacity: true)
        handling = false
        if !isOver && http2.isFinished && carriers.isEmpty { end(failing: nil) }
    }

    private func handle(_ event: HTTP2ConnectionEvent) {
        switch event {
        case .head(let stream, let status, let fields):
            carriers[stream]?.receivedHead(statusCode: status, fields: fields)
        case .data(let stream, let bytes):
            // The connection's window is always granted again at once; a stream's only once its reader has the
            // octets (a paused reader holds back its own stream, never the others).
            let grant = carriers[stream]?.receivedData(bytes) ?? bytes.count
            guard !isOver else { return }
            http2.connectionConsumed(bytes.count)
            if grant > 0 { http2.streamConsumed(grant, on: stream) }
        case .end(let stream):
            carriers[stream]?.receivedEnd()
        case .failed(let stream, let failure):
            carriers.removeValue(forKey: stream)?.failed(Self.connectionFailure(failure))
        case .writable:
            for carrier in carriers.values where carrier.hasPendingUpload { carrier.pumpUpload() }
        case .goingAway:
            guard !isDraining else { return }
            isDraining = true
            pool?.sessionIsDraining(self)
        case .closed:
            // Every stream was reported failed right before.
            end(failing: nil)
        case .pingAcknowledged(let payload):
            if pendingPing?.payload == payload { pendingPing = nil }
        case .ready:
            // The server's limits and extensions are known now: carriers that waited for them choose, waiters may
            // fit.
            let waiting = settingsWaiters
            settingsWaiters = []
            for carrier in waiting where !carrier.isDone { carrier.peerSettingsArrived() }
            pool?.sessionHasRoom(self)
        case .informational, .trailers:
            break
        }
    }

    /// Ends the session: fails what is still in flight with `failure`, closes the socket, tells the pool.
    private func end(failing failure: ConnectionFailure?) {
        guard !isOver else { return }
        isOver = true
        if let watchTimer { loop.cancelTimer(watchTimer) }
        watchTimer = nil
        let open = Array(carriers.values) + settingsWaiters
        carriers.removeAll()
        settingsWaiters = []
        let ending =
            failure
            ?? .socket(NativeTransportError(code: .closedByPeer, reason: "the HTTP/2 connection closed"))
        for carrier in open { carrier.failed(ending) }
        flushNow()  // a GOAWAY or RST_STREAM the protocol queued last
        connection.close()
        pool?.sessionEnded(self)
    }

    // MARK: Watching the server

    /// The next instant the watch has something to check: the SETTINGS deadline until they are acknowledged, the
    /// PING's deadline while one waits, or when a keep-alive PING is due while streams are open.
    private func nextWatch() -> UInt64? {
        var next: UInt64?
        func include(_ instant: UInt64) { next = min(next ?? instant, instant) }
        if !http2.isSettingsAcknowledged { include(settingsDeadline) }
        if let pendingPing {
            include(pendingPing.deadline)
        } else if let interval = connection.settings.http2PingInterval, !carriers.isEmpty {
            include(lastHeard &+ interval)
        }
        return next
    }

    /// Arms the watch for ``nextWatch()``, unless it is armed for that instant or an earlier one.
    private func armWatch() {
        guard !isOver, let next = nextWatch() else { return }
        if let watchTimer {
            guard next < watchAt else { return }
            loop.cancelTimer(watchTimer)
        }
        watchAt = next
        watchTimer = loop.scheduleTimer(at: next) { [weak self] in
            guard let self else { return }
            watchTimer = nil
            watch()
        }
    }

    private func watch() {
        guard !isOver else { return }
        let now = MonotonicClock.now()
        if !http2.isSettingsAcknowledged && now >= settingsDeadline {
            http2.failSettingsTimeout()
            return drive()
        }
        if let pendingPing, now >= pendingPing.deadline {
            let timeout = Duration.nanoseconds(Int64(clamping: connection.settings.http2PingTimeout))
            let reason = "the HTTP/2 connection did not answer a PING within \(timeout)"
            return end(failing: .socket(NativeTransportError(code: .closedByPeer, reason: reason)))
        }
        if pendingPing == nil, !carriers.isEmpty, let interval = connection.settings.http2PingInterval,
            now >= lastHeard &+ interval
        {
            pendingPing = (now, now &+ connection.settings.http2PingTimeout)
            http2.ping(now)
            drive()
        }
        armWatch()
    }

    /// What a stream's failure means to its exchange.
    private static func connectionFailure(_ failure: HTTP2StreamFailure) -> ConnectionFailure {
        switch failure {
        case .refused:
            return .refused(
                NativeTransportError(code: .closedByPeer, reason: "the HTTP/2 server refused the stream unprocessed"))
        case .reset(let code):
            return .streamReset(
                NativeTransportError(code: .closedByPeer, reason: "the HTTP/2 server reset the stream (\(code))"))
        case .malformed(let code, let reason):
            return .malformed(
                NativeTransportError(
                    code: .malformedResponse, reason: "a malformed HTTP/2 response (\(code)): \(reason)"))
        case .headTooLarge(let limit), .connectionClosed(.headTooLarge(let limit)):
            return .malformed(
                NativeTransportError(
                    code: .responseTooLarge, reason: "the HTTP/2 response head exceeds the size limit (\(limit) octets)"
                ))
        case .connectionClosed(.protocolViolation(.settingsTimeout, let reason)):
            return .socket(NativeTransportError(code: .closedByPeer, reason: "SETTINGS_TIMEOUT: \(reason)"))
        case .connectionClosed(.protocolViolation(let code, let reason)):
            // The server broke the protocol: its answer cannot be trusted, whatever stream it was for.
            return .malformed(
                NativeTransportError(
                    code: .malformedResponse, reason: "the HTTP/2 server broke the protocol (\(code)): \(reason)"))
        case .connectionClosed(let connectionFailure):
            return .socket(
                NativeTransportError(
                    code: .closedByPeer, reason: "the HTTP/2 connection ended under the stream (\(connectionFailure))"))
        }
    }
}

extension HTTP2Session: IterationEndHandler {
    /// The loop's iteration is done: what every stream queued in it goes out in one write.
    func iterationEnded() {
        flushScheduled = false
        flushNow()
    }
}
