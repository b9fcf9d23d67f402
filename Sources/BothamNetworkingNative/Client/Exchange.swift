import BothamNetworking
import BothamWebSocketWire
import Foundation

/// One request/response on one carrier (an HTTP/1.1 connection, or a stream of an HTTP/2 one), run on the event
/// loop and bridged to the caller's task by a continuation that is resumed exactly once.
///
/// `@unchecked Sendable` so the caller can hand it to ``EventLoop/execute(_:)`` (to start and to cancel): every
/// stored property is only read or written on the loop thread.
final class Exchange: ExchangeCarrierDelegate, ConnectionPoolClient, @unchecked Sendable {
    /// The plan; a WebSocket handshake that falls back from HTTP/2 to an HTTP/1.1 upgrade changes its route.
    private var plan: ExchangePlan
    private let pool: ConnectionPool
    private let loop: EventLoop
    private var parser: HTTPResponseParser
    private var continuation: CheckedContinuation<ExchangeOutcome, Never>?
    private var carrier: (any ExchangeCarrier)?
    private var reused = false
    private var cancelledEarly = false
    private var finished = false
    private var timer: UInt64?
    private var lastActivity: UInt64 = 0
    private var connectDeadline: UInt64?
    /// The file body being streamed, until its last byte is queued.
    private var upload: FileBodyReader?
    private var pumping = false
    /// The file the response body goes to, when it does not stay in memory.
    private let bodyFile: ResponseBodyFile?
    /// Request bytes queued on the carrier so far (head included), for upload progress.
    private var queuedRequestBytes = 0
    /// The octets of the head counted in ``queuedRequestBytes``.
    private var headBytes = 0
    private var reportedBodyCount = -1
    /// The attempt's deadline; a streaming call drops it once the head is delivered (the idle timeout stays).
    private var deadline: UInt64?
    /// A streamed body whose head is parsed but not yet handed to the caller. Held only until then: the caller's
    /// stream must be the only owner afterwards, so that releasing it ends the exchange.
    private var pendingStream: HTTPBodyStream?
    /// Where a streamed body's bytes go.
    private var stream: HTTPBodyStream.Continuation?
    /// Decodes a `gzip` or `deflate` streamed body as it arrives.
    private var streamInflater: StreamingInflater?
    /// The task reading a streamed request body, its waiter for room on the connection, what it sent so far, and
    /// whether it is done.
    private var streamUpload: Task<Void, Never>?
    private var streamUploadWaiter: CheckedContinuation<Bool, Never>?
    private var streamUploadSent = 0
    private var streamUploadDone = false
    /// When each step happened, for the response's ``HTTPResponse/Timings``.
    private var timeline = ExchangeTimeline()
    /// The bytes that came after a `101 Switching Protocols` head in the same read: the WebSocket's first.
    private var afterSwitch: [UInt8] = []
    /// Whether the WebSocket handshake went as an extended CONNECT on an HTTP/2 stream (RFC 8441).
    private var extendedConnect = false
    /// Whether the head and an in-memory body are queued (the request is sent once the socket took them, and any
    /// file or streamed body).
    private var requestQueued = false

    init(plan: ExchangePlan, pool: ConnectionPool, loop: EventLoop) {
        self.plan = plan
        self.pool = pool
        self.loop = loop
        let bodyFile = plan.responseBodyFile.map(ResponseBodyFile.init(url:))
        self.bodyFile = bodyFile
        var sink: HTTPResponseParser.BodySink?
        if let bodyFile {
            sink = { (bytes: UnsafeRawBufferPointer) throws(NativeTransportError) in try bodyFile.append(bytes) }
        }
        parser = HTTPResponseParser(method: plan.method, limits: plan.limits, bodySink: sink)
        parser.switchesProtocols = plan.webSocket != nil
        deadline = plan.deadline
        if plan.streams != nil {
            parser.headDecision = { [unowned self] statusCode, headers in startStream(statusCode, headers) }
        }
    }

    /// Starts the exchange; `continuation` is resumed once with the outcome.
    func start(_ continuation: CheckedContinuation<ExchangeOutcome, Never>) {
        self.continuation = continuation
        if cancelledEarly {
            finish(.failure(.cancelled))
            return
        }
        lastActivity = MonotonicClock.now()
        timeline.startedAt = lastActivity
        armTimer()
        pool.acquire(plan.route, tlsContext: plan.tlsContext, for: self, fresh: plan.freshConnection)
    }

    /// The calling task was cancelled: close the connection and end with ``APIClientError/cancelled``.
    func cancel() {
        if stream != nil {
            finish(.failure(.cancelled))
            return
        }
        guard continuation != nil else {
            cancelledEarly = true
            return
        }
        finish(.failure(.cancelled))
    }

    // MARK: ConnectionPoolClient

    func assign(_ carrier: any ExchangeCarrier, reused: Bool) {
        guard !finished else {
            if reused { carrier.release(to: pool) } else { carrier.discard(in: pool) }
            return
        }
        self.carrier = carrier
        self.reused = reused
        carrier.attach(self)
        if plan.webSocket != nil, let stream = carrier as? HTTP2StreamCarrier {
            return openWebSocket(on: stream)
        }
        if carrier.isReady {
            connectDeadline = nil
            send(on: carrier)
        } else {
            connectDeadline = plan.connectTimeout.map { MonotonicClock.now() &+ $0 }
            armTimer()
        }
    }

    // MARK: ConnectionDelegate

    func connectionIsReady(_ connection: Connection) {
        if connection.speaksHTTP2 {
            // The pool shares it from now on: this exchange gets its first stream.
            carrier = nil
            connection.delegate = nil
            pool.adoptHTTP2(connection, firstClient: self)
            return
        }
        pool.connectionSpeaksHTTP1(connection)
        carrierIsReady()
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        carrierDidRead(bytes)
    }

    func connection(_ connection: Connection, didFail failure: ConnectionFailure) {
        carrierDidFail(failure)
    }

    func directReadTarget(reserve: Int) -> UnsafeMutableRawBufferPointer? {
        parser.directBodyTarget(reserve: reserve)
    }

    func connection(_ connection: Connection, didReadDirectly count: Int) {
        noteFirstByte()
        parser.didReceiveBodyDirectly(count)
        afterParsing(used: parser.isComplete ? count : nil, of: count)
    }

    func connectionDidDrain(_ connection: Connection) {
        carrierDidDrain()
    }

    // MARK: ExchangeCarrierDelegate

    func carrierIsReady() {
        guard let carrier else { return }
        if plan.webSocket != nil, let stream = carrier as? HTTP2StreamCarrier {
            return openWebSocket(on: stream)
        }
        connectDeadline = nil
        send(on: carrier)
    }

    func carrierDidReceiveHead(statusCode: Int, headers: HTTPHeaders) {
        noteFirstByte()
        if extendedConnect, (200...299).contains(statusCode), let offer = plan.webSocket, let carrier {
            // RFC 8441 §5: a 2xx opened the tunnel; the stream stays open and carries the WebSocket.
            var response = ParsedResponse(statusCode: statusCode, headers: headers, body: Data(), keepAlive: false)
            response.timings = timeline.timings(
                opening: carrier.opening, reused: reused, completedAt: MonotonicClock.now(),
                protocolVersion: carrier.protocolVersion)
            return switchToWebSocket(response, offer: offer, carrier: carrier)
        }
        do {
            try parser.acceptHead(statusCode: statusCode, headers: headers)
            afterParsing(used: parser.isComplete ? 0 : nil, of: 0)
        } catch {
            finish(.failure(bodyFile?.failure ?? Self.apiError(for: error)))
        }
    }

    func carrierDidRead(_ bytes: UnsafeRawBufferPointer) {
        noteFirstByte()
        do {
            let used = try parser.feed(bytes)
            if let used, used < bytes.count, plan.webSocket != nil, parser.isComplete {
                afterSwitch = Array(UnsafeRawBufferPointer(rebasing: bytes[used...]))
            }
            afterParsing(used: used, of: bytes.count)
        } catch {
            finish(.failure(bodyFile?.failure ?? Self.apiError(for: error)))
        }
    }

    private func noteFirstByte() {
        lastActivity = MonotonicClock.now()
        if timeline.firstByteAt == 0 { timeline.firstByteAt = lastActivity }
    }

    /// After the parser took `count` octets: progress, a streamed head handed over, the response completed when
    /// it is (`used`: the octets it took, all of them unless the server sent more than one response).
    private func afterParsing(used: Int?, of count: Int) {
        reportDownload()
        if pendingStream != nil { deliverHead() }
        guard let used else { return }
        complete(reusable: used == count)
    }

    func carrierDidFail(_ failure: ConnectionFailure) {
        switch failure {
        case .endOfStream:
            do {
                if try parser.finishAtEndOfStream() {
                    reportDownload()
                    complete(reusable: false)
                } else if reused {
                    finish(
                        staleOr(NativeTransportError(code: .closedByPeer, reason: "the server closed the connection")))
                } else {
                    // An empty reply on a new connection: the server answered, with nothing (URLSession agrees).
                    let error = NativeTransportError(
                        code: .malformedResponse, reason: "the server closed the connection without a response")
                    finish(
                        .failure(
                            .networkError(APIClientError.NetworkFailure(kind: .badServerResponse, underlying: error))))
                }
            } catch {
                finish(.failure(bodyFile?.failure ?? Self.apiError(for: error)))
            }
        case .socket(let error):
            finish(staleOr(error))
        case .resolve(let error):
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: .cannotFindHost, underlying: error))))
        case .connect(let error):
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: .cannotConnect, underlying: error))))
        case .tls(let error):
            finish(
                .failure(.networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed, underlying: error)))
            )
        case .proxy(let error):
            let kind: APIClientError.NetworkFailure.Kind =
                error.code == .authenticationRequired ? .proxyAuthenticationRequired : .cannotConnect
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: kind, underlying: error))))
        case .refused(let error):
            // Refused after its head arrived (GOAWAY below it, REFUSED_STREAM late): not "unprocessed" after all.
            guard !parser.hasReceivedBytes else {
                return finish(
                    .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))))
            }
            finish(.refused)
        case .streamReset(let error):
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))))
        case .malformed(let error):
            let kind: APIClientError.NetworkFailure.Kind =
                error.code == .responseTooLarge ? .responseTooLarge : .badServerResponse
            finish(.failure(.networkError(APIClientError.NetworkFailure(kind: kind, underlying: error))))
        case .rejectedRequest(let reason):
            finish(.failure(.invalidRequest(reason: reason)))
        }
    }

    func carrierDidDrain() {
        guard let carrier else { return }
        if let waiter = streamUploadWaiter {
            streamUploadWaiter = nil
            waiter.resume(returning: true)
        }
        pump(carrier)
        noteRequestSent(on: carrier)
        reportUpload(carrier)
    }

    // MARK: Private

    private func send(on carrier: any ExchangeCarrier) {
        lastActivity = MonotonicClock.now()
        timeline.sendStartedAt = lastActivity
        do {
            // Created (or emptied, on a replay after a stale connection) before the request goes out.
            try bodyFile?.create()
        } catch {
            finish(.failure(bodyFile?.failure ?? Self.apiError(for: error)))
            return
        }
        if let file = plan.bodyFile {
            do {
                upload = try FileBodyReader(url: file.url, length: file.length)
            } catch {
                finish(.failure(error))
                return
            }
        }
        let hasBody = plan.body != nil || plan.bodyFile != nil || plan.bodyStream != nil
        let sent: Result<Int, ConnectionFailure>
        if extendedConnect, let stream = carrier as? HTTP2StreamCarrier {
            sent = stream.sendExtendedConnect(plan.head, protocol: WebSocketOffer.extendedConnectProtocol)
        } else {
            sent = carrier.sendHead(plan.head, endsRequest: !hasBody)
        }
        switch sent {
        case .success(let count):
            headBytes = count
            queuedRequestBytes = count
        case .failure(let failure):
            return carrierDidFail(failure)
        }
        if let body = plan.body {
            carrier.sendBody(body, chunked: false)
            carrier.endBody(chunked: false)
            queuedRequestBytes += body.count
        }
        requestQueued = true
        if let bodyStream = plan.bodyStream { startStreamUpload(bodyStream.chunks) }
        pump(carrier)
        noteRequestSent(on: carrier)
        reportUpload(carrier)
    }

    /// Whether the whole request body has been handed to the connection (a file upload done, a streamed body ended).
    private var bodyFullyQueued: Bool { upload == nil && (plan.bodyStream == nil || streamUploadDone) }

    /// Notes when the socket has taken the whole request (once).
    private func noteRequestSent(on carrier: any ExchangeCarrier) {
        guard timeline.sentAt == 0, requestQueued, bodyFullyQueued, carrier.queuedBytes == 0 else { return }
        timeline.sentAt = MonotonicClock.now()
    }

    // MARK: Streamed request bodies

    /// Reads the streamed body on a task of its own and queues each chunk on the loop, waiting while the connection
    /// has 256 KiB or more unsent (back-pressure on the producer).
    private func startStreamUpload(_ chunks: HTTPBody.Stream.Chunks) {
        let loop = self.loop
        streamUpload = Task { [weak self] in
            do throws(APIClientError) {
                while let chunk = try await chunks.next() {
                    guard let self, await self.offer(chunk, on: loop) else { return }
                }
                guard let self else { return }
                _ = await self.offer(nil, on: loop)
            } catch {
                guard let self else { return }
                loop.execute { self.finish(.failure(error)) }
            }
        }
    }

    /// Queues `chunk` (`nil`: the end) on the loop; `false` when the exchange is over.
    private func offer(_ chunk: Data?, on loop: EventLoop) async -> Bool {
        await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            loop.execute { self.write(chunk, waiter: waiter) }
        }
    }

    private func write(_ chunk: Data?, waiter: CheckedContinuation<Bool, Never>) {
        guard !finished, let carrier, let bodyStream = plan.bodyStream else {
            return waiter.resume(returning: false)
        }
        let length = bodyStream.length
        guard let chunk else {
            streamUploadDone = true
            if let length, streamUploadSent != length {
                waiter.resume(returning: false)
                let reason = "the streamed body ended after \(streamUploadSent) of its \(length) bytes"
                return finish(.failure(.invalidRequest(reason: reason)))
            }
            carrier.endBody(chunked: length == nil)
            noteRequestSent(on: carrier)
            return waiter.resume(returning: true)
        }
        guard !chunk.isEmpty else { return waiter.resume(returning: true) }
        if let length, chunk.count > length - streamUploadSent {
            waiter.resume(returning: false)
            return finish(
                .failure(.invalidRequest(reason: "the streamed body is longer than its length of \(length) bytes")))
        }
        streamUploadSent += chunk.count
        carrier.sendBody(chunk, chunked: length == nil)
        queuedRequestBytes += chunk.count
        if carrier.queuedBytes < 256 * 1024 {
            waiter.resume(returning: true)
        } else {
            streamUploadWaiter = waiter
        }
    }

    /// Queues file body chunks while the connection has less than 256 KiB waiting; called again each time the
    /// socket drains.
    private func pump(_ carrier: any ExchangeCarrier) {
        guard !pumping, let upload else { return }
        pumping = true
        defer { pumping = false }
        while !finished, self.carrier === carrier, carrier.queuedBytes < 256 * 1024 {
            do {
                guard let chunk = try upload.next() else {
                    self.upload = nil
                    carrier.endBody(chunked: false)
                    return
                }
                carrier.sendBody(chunk, chunked: false)
                queuedRequestBytes += chunk.count
            } catch {
                finish(.failure(error))
                return
            }
        }
    }

    private func staleOr(_ error: NativeTransportError) -> ExchangeOutcome {
        if reused && !parser.hasReceivedBytes { return .staleConnection }
        return .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error)))
    }

    private func complete(reusable: Bool) {
        var response = parser.response
        response.timings = timeline.timings(
            opening: carrier?.opening, reused: reused, completedAt: MonotonicClock.now(),
            protocolVersion: carrier?.protocolVersion)
        if let offer = plan.webSocket, response.statusCode == 101, let carrier {
            return switchToWebSocket(response, offer: offer, carrier: carrier)
        }
        bodyFile?.finish()
        do {
            try streamInflater?.finish()
        } catch {
            return finish(
                .failure(.networkError(APIClientError.NetworkFailure(kind: .badServerResponse, underlying: error))))
        }
        stream?.finish()
        stream = nil
        reportCompletion()
        if let carrier {
            self.carrier = nil
            // A response that came before the whole body went out leaves the connection mid-request.
            if reusable && bodyFullyQueued && response.keepAlive && !plan.requestCloses {
                carrier.release(to: pool)
            } else {
                carrier.discard(in: pool)
            }
        }
        finish(.response(response))
    }

    /// A WebSocket handshake got a stream of an HTTP/2 connection: once the server's SETTINGS are known, it goes
    /// as an extended CONNECT on it when they enable one (RFC 8441 §3); otherwise the stream is given back unused
    /// and the handshake takes a connection of its own for an HTTP/1.1 upgrade
    /// (``NativeHTTPClient/planWebSocket(_:for:key:)``).
    private func openWebSocket(on stream: HTTP2StreamCarrier) {
        switch stream.enablesConnectProtocol {
        case .some(true):
            connectDeadline = nil
            extendedConnect = true
            send(on: stream)
        case .some(false):
            guard plan.webSocketTriesHTTP2 else {
                let error = WebSocketOpening.Failure(
                    "the HTTP/2 server does not take extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL, RFC 8441)")
                return finish(
                    .failure(.networkError(APIClientError.NetworkFailure(kind: .badServerResponse, underlying: error))))
            }
            carrier = nil
            stream.discard(in: pool)
            plan.webSocketTriesHTTP2 = false
            plan.route.upgradesToWebSocket = true
            plan.tlsContext = plan.webSocketFallbackTLSContext
            reused = false
            connectDeadline = nil
            pool.acquire(plan.route, tlsContext: plan.tlsContext, for: self, fresh: plan.freshConnection)
        case .none:
            // The first SETTINGS come within a round trip; the connect timeout bounds the wait.
            if connectDeadline == nil {
                connectDeadline = plan.connectTimeout.map { MonotonicClock.now() &+ $0 }
                armTimer()
            }
            stream.awaitPeerSettings()
        }
    }

    /// Hands the carrier of a `101` (or of an extended CONNECT's 2xx) to a WebSocket once the handshake checks out
    /// (RFC 6455 §4.1, RFC 8441 §5); otherwise the call fails with `badServerResponse` and the carrier is closed.
    private func switchToWebSocket(_ response: ParsedResponse, offer: WebSocketOffer, carrier: any ExchangeCarrier) {
        let negotiation: WebSocketNegotiation
        do throws(WebSocketHandshakeError) {
            negotiation = try offer.validate(response, extendedConnect: extendedConnect)
        } catch {
            return finish(
                .failure(
                    .networkError(
                        APIClientError.NetworkFailure(
                            kind: .badServerResponse,
                            underlying: WebSocketOpening.Failure("WebSocket handshake: \(error.reason)")))))
        }
        reportCompletion()
        self.carrier = nil
        let channel = NativeWebSocketChannel(
            carrier: carrier, pool: pool, loop: loop, offer: offer, negotiation: negotiation)
        carrier.handOver(from: pool)
        channel.start(with: afterSwitch)
        afterSwitch = []
        var upgraded = response
        upgraded.webSocket = channel
        finish(.response(upgraded))
    }

    private func finish(_ outcome: ExchangeOutcome) {
        guard !finished else { return }
        finished = true
        upload = nil
        streamUpload?.cancel()
        streamUpload = nil
        streamUploadWaiter?.resume(returning: false)
        streamUploadWaiter = nil
        bodyFile?.finish()
        if case .failure(let error) = outcome { stream?.finish(throwing: error) }
        stream = nil
        pendingStream = nil
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        if let carrier {
            self.carrier = nil
            carrier.discard(in: pool)
        } else {
            pool.removeWaiter(self, route: plan.route)
        }
        resume(with: outcome)
    }

    /// Resumes the caller once, after releasing the loop's ``EventLoop/handoff``.
    private func resume(with outcome: ExchangeOutcome) {
        guard let continuation else { return }
        self.continuation = nil
        loop.handoff.lock()
        loop.handoff.unlock()
        continuation.resume(returning: outcome)
    }

    /// Called by the caller once its continuation has returned: takes the loop's ``EventLoop/handoff`` after the
    /// loop released it.
    func receivedOutcome() {
        loop.handoff.lock()
        loop.handoff.unlock()
    }

    // MARK: Streaming

    /// Called by the parser for the final head: streams the body to the caller when the plan says so.
    private func startStream(_ statusCode: Int, _ headers: HTTPHeaders) -> HTTPResponseParser.BodySink? {
        guard let streams = plan.streams, streams(statusCode, headers) else { return nil }
        let loop = self.loop
        let (body, continuation) = HTTPBodyStream.makeStream(
            bufferLimit: plan.streamBufferLimit,
            onDemand: { [weak self] in
                guard let self else { return }
                loop.execute { self.resumeReading() }
            },
            onCancel: { [weak self] in
                guard let self else { return }
                loop.execute { self.cancel() }
            }
        )
        pendingStream = body
        stream = continuation
        if plan.decodesStream, let coding = headers[.contentEncoding] {
            streamInflater = StreamingInflater(contentEncoding: coding)
        }
        return { [unowned self] (bytes: UnsafeRawBufferPointer) throws(NativeTransportError) in
            guard let stream else { return }
            let chunk = try streamInflater?.feed(bytes) ?? Data(bytes)
            if !chunk.isEmpty, stream.yield(chunk) == .pause { carrier?.pauseReading() }
        }
    }

    /// Hands the head and the body stream to the caller; from now on only the idle timeout applies.
    private func deliverHead() {
        guard let body = pendingStream else { return }
        pendingStream = nil
        deadline = nil
        var head = parser.response
        head.timings = timeline.timings(
            opening: carrier?.opening, reused: reused, completedAt: 0, protocolVersion: carrier?.protocolVersion)
        if streamInflater != nil {
            // The caller reads the decoded body: these fields describe the coded one.
            head.headers.remove(.contentEncoding)
            head.headers.remove(.contentLength)
        }
        resume(with: .streaming(head, body: body))
    }

    /// The consumer drained its buffer: read again, and count the pause as no idle time.
    private func resumeReading() {
        guard !finished else { return }
        lastActivity = MonotonicClock.now()
        carrier?.resumeReading()
    }

    // MARK: Progress

    /// The size of the request body, if any.
    private var requestBodyLength: Int? {
        plan.bodyFile?.length ?? plan.body?.count
    }

    /// Reports the request body bytes the socket has taken.
    private func reportUpload(_ carrier: any ExchangeCarrier) {
        guard let progress = plan.progress, let total = requestBodyLength, !finished else { return }
        let taken = queuedRequestBytes - carrier.queuedBytes - headBytes
        progress.report(.upload, completed: Int64(min(max(0, taken), total)), total: Int64(total))
    }

    /// Reports the response body bytes parsed so far.
    private func reportDownload() {
        guard let progress = plan.progress, parser.bodyCount != reportedBodyCount,
            !(plan.decodesAfterwards && parser.isContentCoded)
        else { return }
        reportedBodyCount = parser.bodyCount
        progress.report(
            .download, completed: Int64(parser.bodyCount), total: parser.expectedBodyCount.map { Int64($0) })
    }

    /// The last reports of a whole exchange: every request body byte sent, every response body byte received.
    private func reportCompletion() {
        guard let progress = plan.progress else { return }
        if let total = requestBodyLength {
            progress.report(.upload, completed: Int64(total), total: Int64(total))
        }
        if !(plan.decodesAfterwards && parser.isContentCoded) {
            let received = Int64(parser.bodyCount)
            progress.report(.download, completed: received, total: received)
        }
    }

    /// The earliest instant a timeout could fire, or `nil` when no limit applies; the timer re-checks when it fires
    /// (progress moves it).
    private func nextExpiry() -> UInt64? {
        var expiry: UInt64?
        func include(_ instant: UInt64?) {
            guard let instant else { return }
            expiry = min(expiry ?? instant, instant)
        }
        if let idleTimeout = plan.idleTimeout {
            include(max(lastActivity, carrier?.lastProgress ?? 0) &+ idleTimeout)
        }
        include(deadline)
        include(connectDeadline)
        return expiry
    }

    private func armTimer() {
        guard !finished else { return }
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        guard let expiry = nextExpiry() else { return }
        // A strong reference: `finish` cancels the timer, so the loop holds the exchange only while it is unfinished
        // and its deadline pending. A weak one would give every exchange a side table, which sends every retain and
        // release of it down the runtime's slow path (BENCHMARKS.md, "Native against wrk and curl").
        timer = loop.scheduleTimer(at: expiry) { self.timerFired() }
    }

    private func timerFired() {
        timer = nil
        if carrier?.isReadingPaused == true {
            // Waiting for the caller to read is not idleness; the clock restarts when reading resumes.
            lastActivity = MonotonicClock.now()
            armTimer()
        } else if let expiry = nextExpiry(), MonotonicClock.now() >= expiry {
            finish(.failure(.timeout))
        } else {
            armTimer()
        }
    }

    private static func apiError(for error: NativeTransportError) -> APIClientError {
        switch error.code {
        case .responseTooLarge:
            return .networkError(APIClientError.NetworkFailure(kind: .responseTooLarge, underlying: error))
        case .closedByPeer, .socket:
            return .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))
        default: return .networkError(APIClientError.NetworkFailure(kind: .badServerResponse, underlying: error))
        }
    }
}
