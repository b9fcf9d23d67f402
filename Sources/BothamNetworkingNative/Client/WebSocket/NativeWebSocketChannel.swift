import BothamNetworking
import BothamWebSocketWire
import Foundation

/// A WebSocket on a carrier that switched protocols: RFC 6455 (``WebSocketSession`` decides, this runs it) on the
/// event loop, bridged to the caller's tasks.
///
/// `@unchecked Sendable` so that callers can reach it from any task: every stored property but the immutable ones
/// and ``closureLock`` is read and written on the loop thread only (each public method hops there with
/// ``EventLoop/execute(_:)`` and hands its result back through a continuation).
final class NativeWebSocketChannel: ExchangeCarrierDelegate, WebSocketChannel, @unchecked Sendable {
    /// A caller waiting on the loop, and what it gets.
    private typealias Waiter<Value> = CheckedContinuation<Result<Value, APIClientError>, Never>

    private let loop: EventLoop
    private let pool: ConnectionPool
    private let options: WebSocket.Options
    /// The subprotocol the server chose.
    let subprotocol: String?
    private var carrier: (any ExchangeCarrier)?
    private var session: WebSocketSession
    /// Messages read and not yet taken, oldest first, and their bytes.
    private var inbox: [WebSocket.Message] = []
    private var inboxHead = 0
    private var inboxBytes = 0
    private var receiver: Waiter<WebSocket.Message?>?
    /// Senders waiting for the carrier to take what is queued.
    private var senders: [Waiter<Void>] = []
    /// Pings waiting for their pong, by payload.
    private var pings: [(payload: [UInt8], waiter: Waiter<Void>)] = []
    private var pingCounter: UInt64 = 0
    private var closers: [CheckedContinuation<Void, Never>] = []
    private var closeTimer: UInt64?
    private var keepAliveTimer: UInt64?
    /// The keep-alive ping in flight: when it must be answered by (monotonic nanoseconds).
    private var keepAliveDeadline: UInt64?
    private var lastRead: UInt64 = 0
    /// Why the socket can no longer be used, once it cannot: `nil` while open, `.success` after a clean close.
    private var ending: Result<Void, APIClientError>?
    /// How the socket ended, readable from any thread.
    private let closureLock = Lock<WebSocket.Closure?>(nil)

    /// Unread messages' bytes beyond which the socket is not read until the reader catches up.
    static let inboxLimit = WebSocket.unreadLimit
    /// Queued octets beyond which ``send(_:)`` waits for the carrier to drain.
    static let sendBufferLimit = 256 << 10

    init(
        carrier: any ExchangeCarrier, pool: ConnectionPool, loop: EventLoop, offer: WebSocketOffer,
        negotiation: WebSocketNegotiation
    ) {
        self.carrier = carrier
        self.pool = pool
        self.loop = loop
        options = offer.options
        subprotocol = negotiation.subprotocol
        let limits = WebSocketLimits(
            maxFrameSize: max(1, offer.options.maxMessageSize), maxMessageSize: max(1, offer.options.maxMessageSize))
        session = WebSocketSession(
            role: .client, limits: limits, deflate: negotiation.deflate,
            maskingKey: {
                var generator = SystemRandomNumberGenerator()
                return generator.next()
            })
    }

    /// Takes over the carrier and reads `early`, the bytes that came with the `101`. Loop thread only.
    func start(with early: [UInt8]) {
        carrier?.attach(self)
        lastRead = MonotonicClock.now()
        if !early.isEmpty { early.withUnsafeBytes { handle(session.receive($0)) } }
        scheduleKeepAlive()
    }

    // MARK: WebSocketChannel

    var closure: WebSocket.Closure? { closureLock.withLock { $0 } }

    func send(_ message: WebSocket.Message) async throws(APIClientError) {
        let wire: WebSocketMessage
        switch message {
        case .text(let text): wire = .text(text)
        case .binary(let data): wire = .binary([UInt8](data))
        }
        try await onLoop { (waiter: Waiter<Void>) in
            if let failure = self.usable() { return waiter.resume(returning: .failure(failure)) }
            do throws(WebSocketSessionError) {
                try self.session.send(wire)
            } catch {
                return waiter.resume(returning: .failure(Self.closedError(error.reason)))
            }
            self.flush()
            if let carrier = self.carrier, carrier.queuedBytes > Self.sendBufferLimit {
                self.senders.append(waiter)
            } else {
                waiter.resume(returning: .success(()))
            }
        }
    }

    func receive() async throws(APIClientError) -> WebSocket.Message? {
        let take: @Sendable (Waiter<WebSocket.Message?>) -> Void = { waiter in
            if let message = self.takeMessage() { return waiter.resume(returning: .success(message)) }
            if let ending = self.ending { return waiter.resume(returning: ending.map { nil }) }
            guard self.receiver == nil else {
                return waiter.resume(
                    returning: .failure(
                        .invalidRequest(reason: "a WebSocket's messages are read by one task at a time")))
            }
            self.receiver = waiter
        }
        return try await onLoop(cancel: { $0.cancelReceiver() }, take)
    }

    func ping() async throws(APIClientError) {
        try await onLoop { (waiter: Waiter<Void>) in
            if let failure = self.usable() { return waiter.resume(returning: .failure(failure)) }
            self.pingCounter &+= 1
            let payload = withUnsafeBytes(of: self.pingCounter.bigEndian) { Array($0) }
            do throws(WebSocketSessionError) {
                try self.session.sendPing(payload)
            } catch {
                return waiter.resume(returning: .failure(Self.closedError(error.reason)))
            }
            self.pings.append((payload, waiter))
            self.flush()
        }
    }

    func close(code: WebSocket.CloseCode, reason: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                guard self.ending == nil else { return self.resume(continuation) }
                self.closers.append(continuation)
                guard self.session.state == .open else { return }
                // 1005 and 1006 (and other codes no endpoint may send) go as a close frame without a code.
                let wire = WebSocketCloseCode.isValidOnWire(code.rawValue) ? code.rawValue : nil
                do throws(WebSocketSessionError) {
                    try self.session.close(code: wire, reason: wire == nil ? "" : WebSocket.closeFrameReason(reason))
                } catch {
                    return self.end(.success(()), closure: WebSocket.Closure(code: code, reason: reason))
                }
                self.flush()
                let deadline = MonotonicClock.now() &+ MonotonicClock.nanoseconds(self.options.closeTimeout)
                self.closeTimer = self.loop.scheduleTimer(at: deadline) { [weak self] in self?.closeTimedOut() }
            }
        }
        receivedOutcome()
    }

    func abort() {
        loop.execute {
            guard self.ending == nil else { return }
            if self.session.state == .open {
                try? self.session.close(code: WebSocket.CloseCode.goingAway.rawValue, reason: "")
                self.flush()
            }
            self.end(.failure(.cancelled), closure: WebSocket.Closure(code: .goingAway, reason: ""))
        }
    }

    // MARK: ExchangeCarrierDelegate

    func carrierIsReady() {}

    func carrierDidReceiveHead(statusCode: Int, headers: HTTPHeaders) {}

    func carrierDidRead(_ bytes: UnsafeRawBufferPointer) {
        lastRead = MonotonicClock.now()
        keepAliveDeadline = nil
        handle(session.receive(bytes))
    }

    func carrierDidFail(_ failure: ConnectionFailure) {
        carrier = nil
        guard ending == nil else { return }
        let error = NativeTransportError(code: .closedByPeer, reason: "the WebSocket's connection ended: \(failure)")
        end(
            .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))),
            closure: WebSocket.Closure(code: .abnormalClosure, reason: ""))
    }

    func carrierDidDrain() {
        guard let carrier, carrier.queuedBytes <= Self.sendBufferLimit else { return }
        let waiting = senders
        senders = []
        for waiter in waiting { resume(waiter, .success(())) }
    }

    func connectionIsReady(_ connection: Connection) {}

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        carrierDidRead(bytes)
    }

    func connection(_ connection: Connection, didFail failure: ConnectionFailure) {
        carrierDidFail(failure)
    }

    func connectionDidDrain(_ connection: Connection) {
        carrierDidDrain()
    }

    // MARK: Events

    private func handle(_ events: [WebSocketSession.Event]) {
        for event in events {
            switch event {
            case .message(.text(let text)):
                deliver(.text(text))
            case .message(.binary(let bytes)):
                deliver(.binary(Data(bytes)))
            case .ping:
                break  // the session queued the pong
            case .pong(let payload):
                if let index = pings.firstIndex(where: { $0.payload == payload }) {
                    let ping = pings.remove(at: index)
                    resume(ping.waiter, .success(()))
                }
            case .closed(let code, let reason):
                flush()
                end(
                    .success(()),
                    closure: WebSocket.Closure(
                        code: code.map(WebSocket.CloseCode.init) ?? .noStatusReceived, reason: reason))
                return
            case .failed(let code, let reason):
                flush()
                let kind: APIClientError.NetworkFailure.Kind = code == 1009 ? .responseTooLarge : .badServerResponse
                let failure = WebSocketOpening.Failure("the WebSocket peer broke the protocol (\(code)): \(reason)")
                end(
                    .failure(.networkError(APIClientError.NetworkFailure(kind: kind, underlying: failure))),
                    closure: WebSocket.Closure(code: WebSocket.CloseCode(code), reason: reason))
                return
            }
        }
        flush()
    }

    private func deliver(_ message: WebSocket.Message) {
        if let receiver, inboxHead == inbox.count {
            self.receiver = nil
            return resume(receiver, .success(message))
        }
        inbox.append(message)
        inboxBytes += message.byteCount
        if inboxBytes > Self.inboxLimit { carrier?.pauseReading() }
    }

    private func takeMessage() -> WebSocket.Message? {
        guard inboxHead < inbox.count else { return nil }
        let message = inbox[inboxHead]
        // The taken message is released now (a slow reader never empties the inbox), and the taken slots are
        // dropped once they are half of it, so memory follows what is unread, not what was ever read.
        inbox[inboxHead] = .binary(Data())
        inboxHead += 1
        if inboxHead >= 64, inboxHead * 2 >= inbox.count {
            inbox.removeFirst(inboxHead)
            inboxHead = 0
        }
        inboxBytes -= message.byteCount
        if inboxHead == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxHead = 0
        }
        if inboxBytes <= Self.inboxLimit / 2, let carrier, carrier.isReadingPaused { carrier.resumeReading() }
        return message
    }

    private func cancelReceiver() {
        guard let receiver else { return }
        self.receiver = nil
        resume(receiver, .failure(.cancelled))
    }

    /// Writes what the session queued.
    private func flush() {
        guard session.hasOutput else { return }
        let bytes = session.takeOutput()
        carrier?.sendBody(Data(bytes), chunked: false)
    }

    /// Why nothing more may be sent, if so.
    private func usable() -> APIClientError? {
        switch ending {
        case .none: return session.state == .open ? nil : Self.closedError("the WebSocket is closing")
        case .success: return Self.closedError("the WebSocket is closed")
        case .failure(let error): return error
        }
    }

    /// Ends the socket: every waiter learns `outcome`, the connection is closed once what is queued is written.
    private func end(_ outcome: Result<Void, APIClientError>, closure: WebSocket.Closure) {
        guard ending == nil else { return }
        ending = outcome
        closureLock.withLock { if $0 == nil { $0 = closure } }
        if let closeTimer { loop.cancelTimer(closeTimer) }
        if let keepAliveTimer { loop.cancelTimer(keepAliveTimer) }
        closeTimer = nil
        keepAliveTimer = nil
        if let receiver {
            self.receiver = nil
            // A clean close ends the sequence after the messages already read.
            resume(receiver, outcome.map { nil })
        }
        let failure = outcome.failure ?? Self.closedError("the WebSocket is closed")
        for waiter in senders { resume(waiter, .failure(failure)) }
        for ping in pings { resume(ping.waiter, .failure(failure)) }
        senders = []
        pings = []
        let waiting = closers
        closers = []
        for closer in waiting { resume(closer) }
        if let carrier {
            self.carrier = nil
            carrier.discard(in: pool)
        }
    }

    private func closeTimedOut() {
        closeTimer = nil
        let reason = "the peer did not answer the close within \(options.closeTimeout)"
        end(.success(()), closure: WebSocket.Closure(code: .abnormalClosure, reason: reason))
    }

    // MARK: Keep-alive

    private func scheduleKeepAlive() {
        guard let interval = options.pingInterval.map(MonotonicClock.nanoseconds), interval > 0, ending == nil else {
            return
        }
        keepAliveTimer = loop.scheduleTimer(at: MonotonicClock.now() &+ interval) { [weak self] in
            self?.keepAliveFired(interval: interval)
        }
    }

    private func keepAliveFired(interval: UInt64) {
        keepAliveTimer = nil
        guard ending == nil else { return }
        let now = MonotonicClock.now()
        if let deadline = keepAliveDeadline, now >= deadline {
            let error = NativeTransportError(
                code: .closedByPeer,
                reason: "the WebSocket peer did not answer a ping within \(options.pingInterval ?? .zero)")
            return end(
                .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))),
                closure: WebSocket.Closure(code: .abnormalClosure, reason: ""))
        }
        if keepAliveDeadline == nil, now &- lastRead >= interval, session.state == .open {
            try? session.sendPing([])
            flush()
            keepAliveDeadline = now &+ interval
        }
        scheduleKeepAlive()
    }

    // MARK: Helpers

    /// Runs `body` on the loop with a waiter it must resume once, and returns what it resumed it with.
    private func onLoop<Value: Sendable>(
        cancel: (@Sendable (NativeWebSocketChannel) -> Void)? = nil,
        _ body: @escaping @Sendable (Waiter<Value>) -> Void
    ) async throws(APIClientError) -> Value {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter<Value>) in
                if loop.isCurrent { body(waiter) } else { loop.execute { body(waiter) } }
            }
        } onCancel: {
            if let cancel { loop.execute { cancel(self) } }
        }
        receivedOutcome()
        return try result.get()
    }

    /// Takes the loop's ``EventLoop/handoff`` after a continuation returned, as the loop released it before resuming.
    private func receivedOutcome() {
        loop.handoff.lock()
        loop.handoff.unlock()
    }

    private func resume<Value: Sendable>(_ waiter: Waiter<Value>, _ result: Result<Value, APIClientError>) {
        loop.handoff.lock()
        loop.handoff.unlock()
        waiter.resume(returning: result)
    }

    private func resume(_ continuation: CheckedContinuation<Void, Never>) {
        loop.handoff.lock()
        loop.handoff.unlock()
        continuation.resume()
    }

    private static func closedError(_ reason: String) -> APIClientError {
        let error = NativeTransportError(code: .closedByPeer, reason: reason)
        return .networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: error))
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
