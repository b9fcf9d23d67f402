import BothamNetworking
import BothamWebSocketWire
import Foundation

/// A WebSocket held in memory between a client's channel and a script's ``WebSocketPeer``: whole messages pass
/// both ways without framing, with the semantics `NativeHTTPClient`'s channel has on a real connection (the close
/// handshake, pings, the message size limit, protocol faults closed with their code and reported typed).
///
/// Each direction is a mailbox: a sender suspends while its mailbox holds more than ``mailboxLimit`` unread bytes,
/// so an unread message holds the other side back as an unread socket does.
final class StubWebSocketConnection: Sendable {
    private typealias ClientWaiter<Value: Sendable> = CheckedContinuation<Result<Value, APIClientError>, Never>
    private typealias PeerWaiter = CheckedContinuation<Result<WebSocket.Message?, any Error>, Never>

    /// Unread bytes in one direction beyond which the sender waits (as the native channel stops reading).
    static let mailboxLimit = WebSocket.unreadLimit

    private struct Mailbox {
        var messages: [WebSocket.Message] = []
        var bytes = 0

        var isFull: Bool { bytes > StubWebSocketConnection.mailboxLimit }

        mutating func put(_ message: WebSocket.Message) {
            messages.append(message)
            bytes += message.byteCount
        }

        mutating func take() -> WebSocket.Message? {
            guard !messages.isEmpty else { return nil }
            let message = messages.removeFirst()
            bytes -= message.byteCount
            return message
        }
    }

    private struct State {
        var toClient = Mailbox()
        var toPeer = Mailbox()
        var clientReceiver: ClientWaiter<WebSocket.Message?>?
        var peerReceiver: PeerWaiter?
        /// Client sends waiting for the peer to read.
        var clientSenders: [ClientWaiter<Void>] = []
        /// Peer sends waiting for the client to read.
        var peerSenders: [CheckedContinuation<Void, Never>] = []
        /// Client pings waiting for a pong the peer will not send (``WebSocketPeer/Fault/ignorePings``).
        var pings: [ClientWaiter<Void>] = []
        /// Client closes waiting for the handshake to end.
        var closers: [CheckedContinuation<Void, Never>] = []
        /// The client sent its close (or failed the connection, or dropped it).
        var clientClosed = false
        /// The peer sent its close.
        var peerClosed = false
        /// Why the client can no longer use the socket: `nil` while open, `.success` after a clean close.
        var ending: Result<Void, APIClientError>?
        var closure: WebSocket.Closure?
        /// The code of the client's close, as the peer saw it.
        var peerCloseCode: WebSocket.CloseCode?
        var ignoresClose = false
        var ignoresPings = false
        var closeTimer: Task<Void, Never>?
        var script: Task<Void, Never>?
    }

    /// Resumptions collected under the lock and run after it is released.
    private struct Wakeups {
        var actions: [@Sendable () -> Void] = []

        mutating func add(_ action: @escaping @Sendable () -> Void) { actions.append(action) }

        func run() {
            for action in actions { action() }
        }
    }

    private let state = Lock(State())
    /// The handshake request, as the peer sees it.
    let request: RecordedRequest
    /// The subprotocol the stub chose.
    let subprotocol: String?
    private let options: WebSocket.Options
    /// Waits out the close timeout as the stub spends latency (counted when virtual, slept on the call's clock
    /// otherwise); returns `false` when cancelled.
    private let waitOut: @Sendable (Duration) async -> Bool

    init(
        request: RecordedRequest, subprotocol: String?, options: WebSocket.Options,
        waitOut: @escaping @Sendable (Duration) async -> Bool
    ) {
        self.request = request
        self.subprotocol = subprotocol
        self.options = options
        self.waitOut = waitOut
    }

    /// Runs `script` against this connection's peer end in a task of its own. When the script returns while the
    /// socket is open, the peer closes with `1000`; when it throws, with `1011` and the error as the reason.
    func start(_ script: @escaping @Sendable (WebSocketPeer) async throws -> Void) {
        let peer = WebSocketPeer(StubWebSocketPeerEnd(connection: self))
        let task = Task {
            do {
                try await script(peer)
                self.peerClose(code: .normalClosure, reason: "", scriptEnded: true)
            } catch {
                let reason = WebSocket.closeFrameReason(String(describing: error))
                self.peerClose(code: .internalServerError, reason: reason, scriptEnded: true)
            }
        }
        state.withLock { $0.script = task }
    }

    // MARK: The client's side

    var closure: WebSocket.Closure? { state.withLock { $0.closure } }

    func clientSend(_ message: WebSocket.Message) async throws(APIClientError) {
        let result = await withCheckedContinuation { (waiter: ClientWaiter<Void>) in
            var wakeups = Wakeups()
            state.withLock { state in
                if let failure = Self.unusable(state) {
                    return wakeups.add { waiter.resume(returning: .failure(failure)) }
                }
                state.toPeer.put(message)
                if let receiver = state.peerReceiver, let next = state.toPeer.take() {
                    state.peerReceiver = nil
                    wakeups.add { receiver.resume(returning: .success(next)) }
                }
                if state.toPeer.isFull {
                    state.clientSenders.append(waiter)
                } else {
                    wakeups.add { waiter.resume(returning: .success(())) }
                }
            }
            wakeups.run()
        }
        try result.get()
    }

    func clientReceive() async throws(APIClientError) -> WebSocket.Message? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: ClientWaiter<WebSocket.Message?>) in
                var wakeups = Wakeups()
                state.withLock { state in
                    if let message = state.toClient.take() {
                        if !state.toClient.isFull {
                            let senders = state.peerSenders
                            state.peerSenders = []
                            for sender in senders { wakeups.add { sender.resume() } }
                        }
                        return wakeups.add { waiter.resume(returning: .success(message)) }
                    }
                    if let ending = state.ending { return wakeups.add { waiter.resume(returning: ending.map { nil }) } }
                    guard state.clientReceiver == nil else {
                        let failure = APIClientError.invalidRequest(
                            reason: "a WebSocket's messages are read by one task at a time")
                        return wakeups.add { waiter.resume(returning: .failure(failure)) }
                    }
                    guard !Task.isCancelled else {
                        return wakeups.add { waiter.resume(returning: .failure(.cancelled)) }
                    }
                    state.clientReceiver = waiter
                }
                wakeups.run()
            }
        } onCancel: {
            let receiver = state.withLock { state in
                defer { state.clientReceiver = nil }
                return state.clientReceiver
            }
            receiver?.resume(returning: .failure(.cancelled))
        }
        return try result.get()
    }

    func clientPing() async throws(APIClientError) {
        let result = await withCheckedContinuation { (waiter: ClientWaiter<Void>) in
            let answer: Result<Void, APIClientError>? = state.withLock { state in
                if let failure = Self.unusable(state) { return .failure(failure) }
                guard state.ignoresPings else { return .success(()) }
                state.pings.append(waiter)
                return nil
            }
            if let answer { waiter.resume(returning: answer) }
        }
        try result.get()
    }

    /// The client's close: the peer sees `code` and answers it at once, unless it ignores closes, in which case
    /// the close timeout ends the socket with `WebSocket.CloseCode.abnormalClosure`.
    func clientClose(code: WebSocket.CloseCode) async {
        await withCheckedContinuation { (closer: CheckedContinuation<Void, Never>) in
            var wakeups = Wakeups()
            let startsTimer: Bool = state.withLock { state in
                guard state.ending == nil else {
                    wakeups.add { closer.resume() }
                    return false
                }
                state.closers.append(closer)
                guard !state.clientClosed else { return false }
                state.clientClosed = true
                state.peerCloseCode = code
                wakePeerReceiver(&state, &wakeups)
                guard state.ignoresClose else {
                    // The peer answers with the client's code, as RFC 6455 §5.5.1 suggests.
                    end(&state, .success(()), closure: WebSocket.Closure(code: code, reason: ""), &wakeups)
                    return false
                }
                return true
            }
            wakeups.run()
            if startsTimer { startCloseTimer() }
        }
    }

    func clientAbort() {
        var wakeups = Wakeups()
        state.withLock { state in
            guard state.ending == nil else { return }
            if !state.clientClosed {
                state.clientClosed = true
                state.peerCloseCode = .goingAway
            }
            end(&state, .failure(.cancelled), closure: WebSocket.Closure(code: .goingAway, reason: ""), &wakeups)
            state.script?.cancel()
        }
        wakeups.run()
    }

    private func startCloseTimer() {
        let timeout = options.closeTimeout
        let timer = Task {
            guard await self.waitOut(timeout) else { return }
            var wakeups = Wakeups()
            self.state.withLock { state in
                guard state.ending == nil else { return }
                let reason = "the peer did not answer the close within \(timeout)"
                self.end(
                    &state, .success(()), closure: WebSocket.Closure(code: .abnormalClosure, reason: reason), &wakeups)
            }
            wakeups.run()
        }
        let ended = state.withLock { state in
            guard state.ending == nil else { return true }
            state.closeTimer = timer
            return false
        }
        if ended { timer.cancel() }
    }

    // MARK: The peer's side

    func peerReceive() async throws -> WebSocket.Message? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: PeerWaiter) in
                var wakeups = Wakeups()
                state.withLock { state in
                    if let message = state.toPeer.take() {
                        if !state.toPeer.isFull {
                            let senders = state.clientSenders
                            state.clientSenders = []
                            for sender in senders { wakeups.add { sender.resume(returning: .success(())) } }
                        }
                        return wakeups.add { waiter.resume(returning: .success(message)) }
                    }
                    if state.clientClosed || state.ending != nil {
                        return wakeups.add { waiter.resume(returning: .success(nil)) }
                    }
                    guard state.peerReceiver == nil else {
                        let error = StubWebSocketError("a WebSocketPeer's messages are read by one task at a time")
                        return wakeups.add { waiter.resume(returning: .failure(error)) }
                    }
                    guard !Task.isCancelled else {
                        return wakeups.add { waiter.resume(returning: .failure(CancellationError())) }
                    }
                    state.peerReceiver = waiter
                }
                wakeups.run()
            }
        } onCancel: {
            let receiver = state.withLock { state in
                defer { state.peerReceiver = nil }
                return state.peerReceiver
            }
            receiver?.resume(returning: .failure(CancellationError()))
        }
        return try result.get()
    }

    func peerSend(_ message: WebSocket.Message) async throws {
        var wakeups = Wakeups()
        let waits: Bool = try state.withLock { state in
            try Self.requirePeerOpen(state)
            if refusesOversized(message.byteCount, &state, &wakeups) { return false }
            deliver(message, &state, &wakeups)
            return state.toClient.isFull
        }
        wakeups.run()
        guard waits else { return }
        await withCheckedContinuation { (sender: CheckedContinuation<Void, Never>) in
            let stillFull = state.withLock { state in
                guard state.toClient.isFull, state.ending == nil else { return false }
                state.peerSenders.append(sender)
                return true
            }
            if !stillFull { sender.resume() }
        }
    }

    func peerClose(code: WebSocket.CloseCode, reason: String) throws {
        guard reason.utf8.count <= 123 else { throw StubWebSocketError("a close reason is at most 123 bytes of UTF-8") }
        peerClose(code: code, reason: reason, scriptEnded: false)
    }

    /// The peer's close frame, answered by the client at once (as its session does) unless the client closed
    /// first, in which case it completes the client's handshake.
    private func peerClose(code: WebSocket.CloseCode, reason: String, scriptEnded: Bool) {
        var wakeups = Wakeups()
        state.withLock { state in
            guard state.ending == nil, !state.peerClosed else { return }
            if scriptEnded, state.clientClosed, state.ignoresClose {
                // The script that never answered the close is over: its connection ends without a close frame.
                let failure = StubWebSocketError("the WebSocket's connection ended before the peer answered the close")
                return end(
                    &state,
                    .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: failure))),
                    closure: WebSocket.Closure(code: .abnormalClosure, reason: ""), &wakeups)
            }
            state.peerClosed = true
            if code == .noStatusReceived {
                // A close frame without a code (RFC 6455 §7.1.5), answered the same way.
                if !state.clientClosed { state.peerCloseCode = .noStatusReceived }
                state.clientClosed = true
                return end(&state, .success(()), closure: WebSocket.Closure(code: code, reason: ""), &wakeups)
            }
            guard WebSocketCloseCode.isValidOnWire(code.rawValue) else {
                return failClient(
                    &state, code: .protocolError, kind: .badServerResponse,
                    reason: "close code \(code.rawValue) is not valid on the wire", &wakeups)
            }
            if !state.clientClosed { state.peerCloseCode = code }
            state.clientClosed = true
            end(&state, .success(()), closure: WebSocket.Closure(code: code, reason: reason), &wakeups)
        }
        wakeups.run()
    }

    var peerSeenCloseCode: WebSocket.CloseCode? { state.withLock { $0.peerCloseCode } }

    func inject(_ fault: WebSocketPeer.Fault) throws {
        var wakeups = Wakeups()
        defer { wakeups.run() }
        try state.withLock { state in
            switch fault {
            case .ignoreClose:
                state.ignoresClose = true
            case .ignorePings:
                state.ignoresPings = true
            case .dropConnection:
                try Self.requireConnected(state)
                let failure = StubWebSocketError("the WebSocket's connection ended: the peer dropped it")
                state.clientClosed = true
                end(
                    &state,
                    .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost, underlying: failure))),
                    closure: WebSocket.Closure(code: .abnormalClosure, reason: ""), &wakeups)
            case .rawBytes:
                try Self.requirePeerOpen(state)
                failClient(
                    &state, code: .protocolError, kind: .badServerResponse,
                    reason: "raw bytes from the peer (the stub has no frames: any are a protocol error)", &wakeups)
            case .invalidUTF8Text:
                try Self.requirePeerOpen(state)
                failClient(
                    &state, code: .invalidFramePayloadData, kind: .badServerResponse,
                    reason: "a text message that is not valid UTF-8", &wakeups)
            case .oversizedMessage(let count):
                try Self.requirePeerOpen(state)
                if !refusesOversized(count, &state, &wakeups) {
                    deliver(.binary(Data(count: max(0, count))), &state, &wakeups)
                }
            }
        }
    }

    // MARK: Shared

    /// Fails the client with `1009` when a message of `count` bytes is over its limit, as the native channel does;
    /// whether it was.
    private func refusesOversized(_ count: Int, _ state: inout State, _ wakeups: inout Wakeups) -> Bool {
        guard count > options.maxMessageSize else { return false }
        failClient(
            &state, code: .messageTooBig, kind: .responseTooLarge,
            reason: "a message of \(count) bytes, over the limit of \(options.maxMessageSize)", &wakeups)
        return true
    }

    /// Hands `message` to the client (its waiting reader first).
    private func deliver(_ message: WebSocket.Message, _ state: inout State, _ wakeups: inout Wakeups) {
        if let receiver = state.clientReceiver {
            state.clientReceiver = nil
            return wakeups.add { receiver.resume(returning: .success(message)) }
        }
        state.toClient.put(message)
    }

    /// The client fails the connection as its session does on a protocol violation: it sends a close with `code`
    /// (unless it had closed) and reports `kind`.
    private func failClient(
        _ state: inout State, code: WebSocket.CloseCode, kind: APIClientError.NetworkFailure.Kind, reason: String,
        _ wakeups: inout Wakeups
    ) {
        if !state.clientClosed {
            state.clientClosed = true
            state.peerCloseCode = code
        }
        let failure = WebSocketOpening.Failure("the WebSocket peer broke the protocol (\(code.rawValue)): \(reason)")
        end(
            &state, .failure(.networkError(APIClientError.NetworkFailure(kind: kind, underlying: failure))),
            closure: WebSocket.Closure(code: code, reason: reason), &wakeups)
    }

    private func wakePeerReceiver(_ state: inout State, _ wakeups: inout Wakeups) {
        guard let receiver = state.peerReceiver else { return }
        state.peerReceiver = nil
        wakeups.add { receiver.resume(returning: .success(nil)) }
    }

    /// Ends the socket: every waiter on either side learns how.
    private func end(
        _ state: inout State, _ outcome: Result<Void, APIClientError>, closure: WebSocket.Closure,
        _ wakeups: inout Wakeups
    ) {
        guard state.ending == nil else { return }
        state.ending = outcome
        state.closure = closure
        state.closeTimer?.cancel()
        state.closeTimer = nil
        if let receiver = state.clientReceiver {
            state.clientReceiver = nil
            wakeups.add { receiver.resume(returning: outcome.map { nil }) }
        }
        let failure: APIClientError
        if case .failure(let error) = outcome { failure = error } else { failure = Self.closedError("closed") }
        for waiter in state.clientSenders + state.pings { wakeups.add { waiter.resume(returning: .failure(failure)) } }
        for sender in state.peerSenders { wakeups.add { sender.resume() } }
        for closer in state.closers { wakeups.add { closer.resume() } }
        state.clientSenders = []
        state.pings = []
        state.peerSenders = []
        state.closers = []
        wakePeerReceiver(&state, &wakeups)
    }

    /// Why the client may not send, if so.
    private static func unusable(_ state: State) -> APIClientError? {
        switch state.ending {
        case .none: state.clientClosed ? closedError("closing") : nil
        case .success: closedError("closed")
        case .failure(let error): error
        }
    }

    private static func requireConnected(_ state: State) throws {
        guard state.ending == nil else { throw StubWebSocketError("the WebSocket is closed") }
    }

    private static func requirePeerOpen(_ state: State) throws {
        try requireConnected(state)
        guard !state.peerClosed else { throw StubWebSocketError("the peer closed the WebSocket") }
    }

    private static func closedError(_ what: String) -> APIClientError {
        .networkError(
            APIClientError.NetworkFailure(
                kind: .connectionLost, underlying: StubWebSocketError("the WebSocket is \(what)")))
    }
}

/// Why a stubbed WebSocket refused an operation.
struct StubWebSocketError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The client's end: the channel `BothamAPIClient.webSocket(...)` runs on.
final class StubWebSocketChannel: WebSocketChannel {
    private let connection: StubWebSocketConnection

    init(_ connection: StubWebSocketConnection) {
        self.connection = connection
    }

    var subprotocol: String? { connection.subprotocol }
    var closure: WebSocket.Closure? { connection.closure }

    func send(_ message: WebSocket.Message) async throws(APIClientError) {
        try await connection.clientSend(message)
    }

    func receive() async throws(APIClientError) -> WebSocket.Message? {
        try await connection.clientReceive()
    }

    func ping() async throws(APIClientError) {
        try await connection.clientPing()
    }

    func close(code: WebSocket.CloseCode, reason: String) async {
        await connection.clientClose(code: code)
    }

    func abort() {
        connection.clientAbort()
    }
}

/// The peer's end a script's ``WebSocketPeer`` talks to.
struct StubWebSocketPeerEnd: WebSocketPeerEnd {
    let connection: StubWebSocketConnection

    var request: RecordedRequest { connection.request }
    var closeCode: WebSocket.CloseCode? { connection.peerSeenCloseCode }

    func receive() async throws -> WebSocket.Message? {
        try await connection.peerReceive()
    }

    func send(_ message: WebSocket.Message) async throws {
        try await connection.peerSend(message)
    }

    func close(code: WebSocket.CloseCode, reason: String) async throws {
        try connection.peerClose(code: code, reason: reason)
    }

    func inject(_ fault: WebSocketPeer.Fault) async throws {
        try connection.inject(fault)
    }
}
