import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// One exchange's stream on a shared ``HTTP2Session``: the request goes out as HEADERS and DATA within the server's
/// windows, the response comes back as a head and body octets, and what the consumer has not read yet is not
/// granted back to the server (back-pressure reaches it through the stream's window).
///
/// Loop-confined, like its session.
final class HTTP2StreamCarrier: ExchangeCarrier {
    private let session: HTTP2Session
    /// The stream, once the head went out.
    private(set) var stream: HTTP2StreamID?
    private var delegate: (any ExchangeCarrierDelegate)?
    let opening: ConnectionOpening
    /// Request body octets waiting for window, from `pendingStart` on (the prefix went already).
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Whether the body has ended (on our side), and whether END_STREAM went.
    private var endRequested = false
    private var sentEnd = false
    private var pumping = false
    /// Body octets delivered while reading was paused: granted back to the stream's window when it resumes (the
    /// connection's window got them back at once).
    private var unconsumed = 0
    /// Whether the carrier was given back; the session forgets it.
    private(set) var isDone = false
    private(set) var isReadingPaused = false
    private(set) var lastProgress: UInt64 = 0
    /// Whether the stream is a tunnel opened by an extended CONNECT (RFC 8441): it carries another protocol both
    /// ways until its owner gives it back; what it queued last still goes (with END_STREAM), then the session resets
    /// the stream (CANCEL) unless both sides have ended it.
    private(set) var isTunnel = false

    init(session: HTTP2Session, opening: ConnectionOpening) {
        self.session = session
        self.opening = opening
    }

    var isReady: Bool { true }
    var queuedBytes: Int { pending.count - pendingStart }
    var protocolVersion: HTTPResponse.ProtocolVersion { .http2 }
    /// Whether the server takes extended CONNECT requests: `nil` until its first SETTINGS arrived.
    var enablesConnectProtocol: Bool? { session.enablesConnectProtocol }
    /// Whether request octets (or END_STREAM) wait for window.
    var hasPendingUpload: Bool { stream != nil && !sentEnd && (queuedBytes > 0 || endRequested) }

    func attach(_ delegate: any ExchangeCarrierDelegate) {
        self.delegate = delegate
    }

    func sendHead(_ head: RequestHead, endsRequest: Bool) -> Result<Int, ConnectionFailure> {
        open(HTTP2RequestFields.make(head, neverIndexed: session.isNeverIndexed), endsRequest: endsRequest)
    }

    private func open(_ fields: [HPACKHeaderField], endsRequest: Bool) -> Result<Int, ConnectionFailure> {
        switch session.open(self, fields: fields, endStream: endsRequest) {
        case .success(let id):
            stream = id
            sentEnd = endsRequest
            endRequested = endsRequest
            lastProgress = MonotonicClock.now()
            return .success(0)
        case .failure(.fieldsTooLarge(let size, let limit)):
            return .failure(
                .rejectedRequest(
                    "the request's header fields take \(size) octets, more than the HTTP/2 server's limit of \(limit)"))
        case .failure(let error):
            let reason = "the HTTP/2 connection takes no new stream (\(error))"
            return .failure(.refused(NativeTransportError(code: .closedByPeer, reason: reason)))
        }
    }

    /// Opens the stream with an extended CONNECT for `connectProtocol` (RFC 8441 §4) made from `head`, and keeps it
    /// open: what ``sendBody(_:chunked:)`` sends afterwards is the tunnelled protocol's. Only once
    /// ``enablesConnectProtocol`` is `true`.
    func sendExtendedConnect(_ head: RequestHead, protocol connectProtocol: String) -> Result<Int, ConnectionFailure> {
        let fields = HTTP2RequestFields.extendedConnect(
            head, protocol: connectProtocol, neverIndexed: session.isNeverIndexed)
        isTunnel = true
        return open(fields, endsRequest: false)
    }

    /// Waits for the server's first SETTINGS: the delegate hears ``ExchangeCarrierDelegate/carrierIsReady()`` once
    /// they arrived, or a failure if the connection ends first.
    func awaitPeerSettings() {
        session.notifyWhenEstablished(self)
    }

    func sendBody(_ bytes: Data, chunked: Bool) {
        guard !isDone, !endRequested, !bytes.isEmpty else { return }
        if pendingStart > 64 * 1024 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        pending.append(contentsOf: bytes)
        pumpUpload()
    }

    func endBody(chunked: Bool) {
        guard !isDone, !endRequested else { return }
        endRequested = true
        pumpUpload()
    }

    /// Sends what the windows allow; tells the exchange when everything queued went.
    func pumpUpload() {
        guard !pumping, !isDone, let stream, !sentEnd else { return }
        pumping = true
        defer { pumping = false }
        let before = queuedBytes
        let sent = session.send(pending[pendingStart...], on: stream, endStream: endRequested)
        pendingStart += sent
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            if endRequested && session.hasSentEnd(of: stream) { sentEnd = true }
        }
        if sent > 0 { lastProgress = MonotonicClock.now() }
        if before > 0 && queuedBytes == 0 { delegate?.carrierDidDrain() }
    }

    func pauseReading() {
        isReadingPaused = true
    }

    func resumeReading() {
        guard isReadingPaused else { return }
        isReadingPaused = false
        if let stream, unconsumed > 0 {
            let count = unconsumed
            unconsumed = 0
            session.streamConsumed(count, on: stream)
        }
    }

    func release(to pool: any ExchangeCarrierPool) {
        giveBack()
    }

    func discard(in pool: any ExchangeCarrierPool) {
        giveBack()
    }

    /// Resets the stream if it is still open (a response left early, or one that came before the whole request
    /// went), then leaves the session.
    private func giveBack() {
        guard !isDone else { return }
        if isTunnel && queuedBytes > 0 {
            // RFC 8441 §6: an orderly end of the tunnel is END_STREAM, here on the last of what the owner queued (a
            // WebSocket's close frame waiting for window). Never on an empty DATA frame: a server may have forgotten
            // a stream it ended (hypercorn fails the whole connection on such a frame); the session resets the
            // stream (CANCEL) instead when the server's side is still open.
            endRequested = true
            pumpUpload()
        }
        isDone = true
        delegate = nil
        pending = []
        pendingStart = 0
        unconsumed = 0
        session.carrierDone(self)
    }

    // MARK: From the session

    /// The server's first SETTINGS arrived: the delegate may choose what to send.
    func peerSettingsArrived() {
        delegate?.carrierIsReady()
    }

    func receivedHead(statusCode: Int, fields: [HPACKHeaderField]) {
        lastProgress = MonotonicClock.now()
        delegate?.carrierDidReceiveHead(statusCode: statusCode, headers: HTTP2RequestFields.headers(fields))
    }

    /// Delivers body octets; returns how many the session may grant back to the stream's window now.
    func receivedData(_ bytes: ArraySlice<UInt8>) -> Int {
        lastProgress = MonotonicClock.now()
        bytes.withUnsafeBytes { delegate?.carrierDidRead($0) }
        guard !isDone, isReadingPaused else { return bytes.count }
        unconsumed += bytes.count
        return 0
    }

    func receivedEnd() {
        delegate?.carrierDidFail(.endOfStream)
    }

    func failed(_ failure: ConnectionFailure) {
        delegate?.carrierDidFail(failure)
    }
}
