import BothamNetworking
import BothamWebSocketWire
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a ``WebSocketPeer`` call on ``MockWebServer`` failed.
struct MockWebSocketError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The server end of one WebSocket on a ``MockWebServer`` connection, as its script sees it.
///
/// Two sides share it: the connection's thread, which alone owns the socket and the ``WebSocketSession``
/// (``serve(_:response:request:head:io:core:)`` runs it), and the script's task, which posts commands and waits for
/// their outcome. The thread sleeps in `poll` on the socket, the server's wake signal and this connection's own
/// pipe, which every command writes a byte to.
final class MockWebSocketConnection: WebSocketPeerEnd {
    typealias Waiter = CheckedContinuation<Void, any Error>
    typealias Receiver = CheckedContinuation<WebSocket.Message?, any Error>

    /// What the script asks the thread to do.
    enum Command {
        case send(WebSocket.Message)
        case close(WebSocket.CloseCode, String)
        case fault(WebSocketPeer.Fault)
        case scriptEnded(failure: String?)
    }

    /// Why no more messages will arrive.
    enum InputEnd {
        /// The client closed (or dropped) the connection, or the server did: `receive()` returns `nil`.
        case closed
        /// The client broke the protocol, or the server shut down: `receive()` throws.
        case failed(any Error)
    }

    private struct Shared {
        var commands: [(command: Command, waiter: Waiter?)] = []
        var inbox: [WebSocket.Message] = []
        var receiver: (id: UInt64, continuation: Receiver, deadline: ContinuousClock.Instant)?
        var nextReceiverID: UInt64 = 0
        var inputEnd: InputEnd?
        var closeCode: WebSocket.CloseCode?
        /// Set when the connection has ended: every later command fails with it.
        var finished: (any Error)?
        /// The pipe's write end, -1 once the connection has ended.
        var kickWrite: Int32
    }

    /// How long ``receive()`` waits for a message.
    static let receiveTimeout = Duration.seconds(30)
    /// How long the server waits for the client's answer to its close, and for the connection to end once the
    /// script has.
    static let closeTimeout = Duration.seconds(10)

    let request: RecordedRequest
    private let shared: Lock<Shared>

    private init(request: RecordedRequest, kickWrite: Int32) {
        self.request = request
        shared = Lock(Shared(kickWrite: kickWrite))
    }

    // MARK: WebSocketPeerEnd (the script's task)

    var closeCode: WebSocket.CloseCode? { shared.withLock { $0.closeCode } }

    func receive() async throws -> WebSocket.Message? {
        let id = shared.withLock { state in
            state.nextReceiverID += 1
            return state.nextReceiverID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Receiver) in
                let ready: Result<WebSocket.Message?, any Error>? = shared.withLock { state in
                    if !state.inbox.isEmpty { return .success(state.inbox.removeFirst()) }
                    switch state.inputEnd {
                    case .closed: return .success(nil)
                    case .failed(let error): return .failure(error)
                    case nil: break
                    }
                    guard state.receiver == nil else {
                        return .failure(MockWebSocketError("a WebSocketPeer's messages are read by one task at a time"))
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.receiver = (id, continuation, .now + Self.receiveTimeout)
                    Self.kick(&state)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let receiver = shared.withLock { state -> Receiver? in
                guard let receiver = state.receiver, receiver.id == id else { return nil }
                state.receiver = nil
                return receiver.continuation
            }
            receiver?.resume(throwing: CancellationError())
        }
    }

    func send(_ message: WebSocket.Message) async throws {
        try await post(.send(message))
    }

    func close(code: WebSocket.CloseCode, reason: String) async throws {
        try await post(.close(code, reason))
    }

    func inject(_ fault: WebSocketPeer.Fault) async throws {
        try await post(.fault(fault))
    }

    /// Hands `command` to the thread and waits for its outcome. Once the connection has ended, a close returns and
    /// everything else fails at once.
    private func post(_ command: Command) async throws {
        try await withCheckedThrowingContinuation { (waiter: Waiter) in
            let refusal: Result<Void, any Error>? = shared.withLock { state in
                if let finished = state.finished {
                    if case .close = command { return .success(()) }
                    return .failure(finished)
                }
                state.commands.append((command, waiter))
                Self.kick(&state)
                return nil
            }
            if let refusal { waiter.resume(with: refusal) }
        }
    }

    /// Tells the thread the script has ended (no waiting).
    fileprivate func scriptEnded(failure: String?) {
        shared.withLock { state in
            guard state.finished == nil else { return }
            state.commands.append((.scriptEnded(failure: failure), nil))
            Self.kick(&state)
        }
    }

    /// Wakes the thread. With the lock held, so the pipe cannot be closed meanwhile.
    private static func kick(_ state: inout Shared) {
        guard state.kickWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(state.kickWrite, &byte, 1)  // a full pipe is readable already
    }

    // MARK: The connection's thread

    /// The commands posted since the last call.
    fileprivate func takeCommands() -> [(command: Command, waiter: Waiter?)] {
        shared.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// A message from the client: to the waiting receiver, else to the inbox.
    fileprivate func deliver(_ message: WebSocket.Message) {
        let receiver = shared.withLock { state -> Receiver? in
            guard let receiver = state.receiver else {
                state.inbox.append(message)
                return nil
            }
            state.receiver = nil
            return receiver.continuation
        }
        receiver?.resume(returning: message)
    }

    /// No more messages will arrive, for `end`; `code` is the client's close code, when it closed.
    fileprivate func endInput(_ end: InputEnd, code: WebSocket.CloseCode? = nil) {
        let receiver = shared.withLock { state -> Receiver? in
            if state.closeCode == nil { state.closeCode = code }
            guard state.inputEnd == nil else { return nil }
            state.inputEnd = end
            defer { state.receiver = nil }
            return state.receiver?.continuation
        }
        switch end {
        case .closed: receiver?.resume(returning: nil)
        case .failed(let error): receiver?.resume(throwing: error)
        }
    }

    /// When the waiting receiver gives up.
    fileprivate var receiverDeadline: ContinuousClock.Instant? { shared.withLock { $0.receiver?.deadline } }

    /// Fails the receiver if it has waited past its deadline.
    fileprivate func expireReceiver(now: ContinuousClock.Instant) {
        let receiver = shared.withLock { state -> Receiver? in
            guard let receiver = state.receiver, receiver.deadline <= now else { return nil }
            state.receiver = nil
            return receiver.continuation
        }
        receiver?.resume(throwing: MockWebServerError.timeout(Self.receiveTimeout))
    }

    /// The connection has ended with `error` for later commands: no more input, the pipe closed (`closePipe`
    /// runs with the lock held); returns the commands still unanswered.
    fileprivate func finish(error: any Error, shutDown: Bool, closePipe: (Int32) -> Void)
        -> [(command: Command, waiter: Waiter?)]
    {
        endInput(shutDown ? .failed(error) : .closed)
        return shared.withLock { state in
            state.finished = error
            closePipe(state.kickWrite)
            state.kickWrite = -1
            defer { state.commands = [] }
            return state.commands
        }
    }
}

// MARK: - Serving

extension MockWebSocketConnection {
    /// Answers `head` (already recorded as `request`) with a `101` and runs `script` over the connection until the
    /// WebSocket ends; a handshake that is not a valid upgrade gets `400`. Runs on the connection's thread.
    static func serve(
        _ script: MockWebSocketScript, response: MockResponse, request: RecordedRequest, head: HTTPRequestHead,
        io: inout ConnectionIO, core: ServerCore
    ) -> ResponseOutcome {
        let acceptance: WebSocketHandshake.ServerAcceptance
        do {
            acceptance = try WebSocketHandshake.acceptRequest(
                method: head.method.rawValue, headers: head.headers.map { ($0.name.rawName, $0.value) },
                supportedProtocols: script.subprotocol.map { [$0] } ?? [],
                deflate: script.compression ? PerMessageDeflate.ServerPolicy() : nil)
        } catch {
            return ResponseWriter.reject(.badRequest("Not a valid WebSocket handshake: \(error)"), over: io)
        }
        var text = "HTTP/1.1 101 Switching Protocols\r\n"
        for (name, value) in acceptance.headers {
            text += "\(name): \(value)\r\n"
        }
        for field in response.headers {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        text += "\r\n"
        do {
            try io.pause(for: response.headersDelay)
            try io.write(Array(text.utf8))
        } catch {
            return .close
        }

        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .close }
        core.descriptors.register(ends[0])
        core.descriptors.register(ends[1])
        guard SystemCalls.makeNonBlocking(ends[0]), SystemCalls.makeNonBlocking(ends[1]) else {
            core.descriptors.close(ends[0])
            core.descriptors.close(ends[1])
            return .close
        }
        let connection = MockWebSocketConnection(request: request, kickWrite: ends[1])
        var driver = MockWebSocketDriver(
            connection: connection, descriptor: io.descriptor, wake: core.wake, kickRead: ends[0],
            session: WebSocketSession(role: .server, deflate: acceptance.negotiation.deflate, maskingKey: { 0 }))
        let body = script.body
        let task = Task.detached {
            do {
                try await body(WebSocketPeer(connection))
                connection.scriptEnded(failure: nil)
            } catch {
                connection.scriptEnded(failure: "\(error)")
            }
        }
        let ending = driver.run(early: io.takeBuffered())
        let error: any Error =
            ending == .shutDown
            ? MockWebServerError.serverShutDown : MockWebSocketError("the WebSocket's connection has ended")
        let unanswered = connection.finish(error: error, shutDown: ending == .shutDown) { write in
            core.descriptors.close(write)
        }
        core.descriptors.close(ends[0])
        driver.resolve(unanswered, error: error)
        driver.resolveAll(error: error)
        switch ending {
        case .shutDown:
            task.cancel()
        case .dropped, .clientEnded:
            SystemCalls.shutdownBoth(io.descriptor)
        case .closed:
            io.drainAfterHalfClose()
        }
        return .close
    }
}

/// How a WebSocket's connection ended.
private enum MockWebSocketEnding: Equatable {
    /// Closed by the server after the close handshake (or its timeout), or after a failure.
    case closed
    /// Dropped by the server on purpose (``WebSocketPeer/Fault/dropConnection``).
    case dropped
    /// The client closed or reset it.
    case clientEnded
    /// The server shut down.
    case shutDown
}

/// The connection's thread's side of a ``MockWebSocketConnection``: the socket, the session, what is left to write
/// and who waits for it. Confined to that thread.
private struct MockWebSocketDriver {
    typealias Waiter = MockWebSocketConnection.Waiter

    let connection: MockWebSocketConnection
    let descriptor: Int32
    let wake: WakeSignal
    let kickRead: Int32
    var session: WebSocketSession

    /// Bytes to write, from ``pendingStart``.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Bytes queued and written since the start, to tell a waiter when its bytes are out.
    private var queuedTotal = 0
    private var writtenTotal = 0
    /// Waiters for their bytes to be written; those of faults are not failed when the connection breaks first.
    private var writeWaiters: [(target: Int, waiter: Waiter, failsOnLoss: Bool)] = []
    /// A write failed: nothing more can be written.
    private var outputLost = false
    /// The client closed or reset the connection.
    private var inputEnded = false
    private var ignoresClose = false
    private var ignoresPings = false
    /// Scripts waiting for the client's answer to the server's close.
    private var closeWaiters: [Waiter] = []
    private var dropWaiters: [Waiter] = []
    /// When to stop waiting for the client's answer to the server's close.
    private var closeDeadline: ContinuousClock.Instant?
    /// When the connection ends whatever happens (set once the script has ended or a write failed).
    private var endDeadline: ContinuousClock.Instant?
    /// Set once the connection is to end as soon as what is queued is written.
    private var ending: MockWebSocketEnding?

    init(
        connection: MockWebSocketConnection, descriptor: Int32, wake: WakeSignal, kickRead: Int32,
        session: WebSocketSession
    ) {
        self.connection = connection
        self.descriptor = descriptor
        self.wake = wake
        self.kickRead = kickRead
        self.session = session
    }

    /// Runs the WebSocket until its connection is to end; `early` are bytes read with the handshake.
    mutating func run(early: [UInt8]) -> MockWebSocketEnding {
        if !early.isEmpty { receive(early) }
        while true {
            for (command, waiter) in connection.takeCommands() { handle(command, waiter) }
            flush()
            if inputEnded { return .clientEnded }
            if let ending, pendingStart == pending.count || outputLost { return ending }
            let now = ContinuousClock.now
            if let closeDeadline, now >= closeDeadline { return .closed }
            if let endDeadline, now >= endDeadline { return .closed }
            connection.expireReceiver(now: now)
            let deadlines = [closeDeadline, endDeadline, connection.receiverDeadline].compactMap { $0 }
            var descriptors = [
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: kickRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            ]
            if pendingStart < pending.count && !outputLost { descriptors[2].events |= Int16(POLLOUT) }
            let result = poll(&descriptors, 3, Self.pollTimeout(until: deadlines.min()))
            if result < 0, SystemCalls.lastError != EINTR { return .shutDown }
            if descriptors[0].revents != 0 { return .shutDown }
            if descriptors[1].revents != 0 { drainKicks() }
            if descriptors[2].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readSocket() }
        }
    }

    // MARK: Commands

    private mutating func handle(_ command: MockWebSocketConnection.Command, _ waiter: Waiter?) {
        switch command {
        case .send(let message):
            guard !outputLost else {
                waiter?.resume(throwing: MockWebSocketError("the WebSocket's connection broke"))
                return
            }
            let wire: WebSocketMessage
            switch message {
            case .text(let text): wire = .text(text)
            case .binary(let data): wire = .binary([UInt8](data))
            }
            do throws(WebSocketSessionError) {
                try session.send(wire)
            } catch {
                waiter?.resume(throwing: error)
                return
            }
            queue(session.takeOutput(), waiter, failsOnLoss: true)
        case .close(let code, let reason):
            guard session.state == .open else {
                waiter?.resume()
                return
            }
            do throws(WebSocketSessionError) {
                try session.close(code: code.rawValue, reason: reason)
            } catch {
                waiter?.resume(throwing: error)
                return
            }
            queue(session.takeOutput(), nil, failsOnLoss: false)
            if let waiter { closeWaiters.append(waiter) }
            closeDeadline = .now + MockWebSocketConnection.closeTimeout
        case .fault(let fault):
            inject(fault, waiter)
        case .scriptEnded(let failure):
            endDeadline = min(
                endDeadline ?? .now + MockWebSocketConnection.closeTimeout, .now + MockWebSocketConnection.closeTimeout)
            guard session.state == .open else { return }
            let code: UInt16 = failure == nil ? 1000 : 1011
            try? session.close(
                code: code, reason: WebSocket.closeFrameReason(failure.map { "the script threw: \($0)" } ?? ""))
            queue(session.takeOutput(), nil, failsOnLoss: false)
            closeDeadline = .now + MockWebSocketConnection.closeTimeout
        }
    }

    private mutating func inject(_ fault: WebSocketPeer.Fault, _ waiter: Waiter?) {
        switch fault {
        case .dropConnection:
            ending = .dropped
            if let waiter { dropWaiters.append(waiter) }
        case .rawBytes(let bytes):
            queue(bytes, waiter, failsOnLoss: false)
        case .invalidUTF8Text:
            // "Hi" and a byte that never occurs in UTF-8, in one final, unmasked, uncompressed text frame.
            let frame = WebSocketFrame(opcode: .text, payload: [0x48, 0x69, 0xFF])
            queue(frame.encoded(maskingKey: nil), waiter, failsOnLoss: false)
        case .oversizedMessage(let count):
            let frame = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0x61, count: max(0, count)))
            queue(frame.encoded(maskingKey: nil), waiter, failsOnLoss: false)
        case .ignoreClose:
            ignoresClose = true
            waiter?.resume()
        case .ignorePings:
            ignoresPings = true
            waiter?.resume()
        }
    }

    /// Queues `bytes` to write; `waiter` resumes once they are written.
    private mutating func queue(_ bytes: [UInt8], _ waiter: Waiter?, failsOnLoss: Bool) {
        if outputLost {
            if failsOnLoss {
                waiter?.resume(throwing: MockWebSocketError("the WebSocket's connection broke"))
            } else {
                waiter?.resume()
            }
            return
        }
        pending += bytes
        queuedTotal += bytes.count
        if let waiter { writeWaiters.append((queuedTotal, waiter, failsOnLoss)) }
    }

    // MARK: Reading and writing

    private func drainKicks() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(kickRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    private mutating func readSocket() {
        guard !inputEnded else { return }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { SystemCalls.receive(descriptor, into: $0) }
        if count > 0 {
            return receive(Array(chunk[0..<count]))
        }
        if count < 0 {
            let code = SystemCalls.lastError
            if code == EINTR || SystemCalls.wouldBlock(code) { return }
        }
        inputEnded = true
        let handshakeOpen = session.state == .open || session.state == .closeSent
        connection.endInput(.closed, code: handshakeOpen && ending != .dropped ? .abnormalClosure : nil)
    }

    /// Feeds `bytes` to the session and acts on what they completed.
    private mutating func receive(_ bytes: [UInt8]) {
        let wasOpen = session.state == .open
        let events = session.receive(bytes)
        var output = session.takeOutput()
        let answersClose = wasOpen && events.contains { if case .closed = $0 { true } else { false } }
        let dropsPongs = ignoresPings && events.contains { if case .ping = $0 { true } else { false } }
        if (answersClose && ignoresClose) || dropsPongs {
            output = Self.frames(of: output) { opcode in
                !(opcode == .pong && dropsPongs) && !(opcode == .close && answersClose && ignoresClose)
            }
        }
        queue(output, nil, failsOnLoss: false)
        for event in events {
            switch event {
            case .message(.text(let text)):
                connection.deliver(.text(text))
            case .message(.binary(let bytes)):
                connection.deliver(.binary(Data(bytes)))
            case .ping, .pong:
                break
            case .closed(let code, _):
                connection.endInput(.closed, code: code.map(WebSocket.CloseCode.init) ?? .noStatusReceived)
                for waiter in closeWaiters { waiter.resume() }
                closeWaiters = []
                closeDeadline = nil
                // The handshake is complete, unless the client closed first and its close goes unanswered.
                if !wasOpen || !ignoresClose { ending = ending ?? .closed }
            case .failed(let code, let reason):
                connection.endInput(
                    .failed(
                        MockWebSocketError("the client broke the WebSocket protocol; closed with \(code): \(reason)")))
                for waiter in closeWaiters { waiter.resume() }
                closeWaiters = []
                ending = ending ?? .closed
            }
        }
    }

    /// Writes what the socket takes without waiting, and resumes the waiters whose bytes are out.
    private mutating func flush() {
        while pendingStart < pending.count && !outputLost {
            let count = pending[pendingStart...].withUnsafeBytes { SystemCalls.send(descriptor, $0) }
            if count > 0 {
                pendingStart += count
                writtenTotal += count
                continue
            }
            let code = SystemCalls.lastError
            if count < 0, code == EINTR { continue }
            if count < 0, SystemCalls.wouldBlock(code) { break }
            outputLost = true
            // Reading on briefly lets a close frame the client sent before it went away still arrive.
            endDeadline = min(endDeadline ?? .now + .seconds(1), .now + .seconds(1))
        }
        if pendingStart == pending.count || outputLost {
            pending = []
            pendingStart = 0
        } else if pendingStart > 1 << 20 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        var waiting: [(target: Int, waiter: Waiter, failsOnLoss: Bool)] = []
        for entry in writeWaiters {
            if entry.target <= writtenTotal || (outputLost && !entry.failsOnLoss) {
                entry.waiter.resume()
            } else if outputLost {
                entry.waiter.resume(throwing: MockWebSocketError("the WebSocket's connection broke"))
            } else {
                waiting.append(entry)
            }
        }
        writeWaiters = waiting
    }

    // MARK: Ending

    /// Answers commands the thread never took, once the connection has ended with `error`.
    func resolve(_ commands: [(command: MockWebSocketConnection.Command, waiter: Waiter?)], error: any Error) {
        for (command, waiter) in commands {
            switch command {
            case .close, .scriptEnded, .fault(.ignoreClose), .fault(.ignorePings), .fault(.dropConnection):
                waiter?.resume()
            case .send, .fault:
                waiter?.resume(throwing: error)
            }
        }
    }

    /// Answers every waiter still waiting, once the connection has ended with `error`.
    mutating func resolveAll(error: any Error) {
        for entry in writeWaiters {
            if entry.failsOnLoss { entry.waiter.resume(throwing: error) } else { entry.waiter.resume() }
        }
        for waiter in closeWaiters + dropWaiters { waiter.resume() }
        writeWaiters = []
        closeWaiters = []
        dropWaiters = []
    }

    // MARK: Helpers

    /// The frames of `bytes` (whole frames the session wrote) whose opcode `keep` accepts, as bytes.
    private static func frames(of bytes: [UInt8], keeping keep: (WebSocketOpcode) -> Bool) -> [UInt8] {
        var kept: [UInt8] = []
        var offset = 0
        while offset < bytes.count, let decoded = WebSocketFrame.decode(bytes[offset...]) {
            if keep(decoded.frame.opcode) { kept += bytes[offset..<(offset + decoded.byteCount)] }
            offset += decoded.byteCount
        }
        return kept
    }

    /// Milliseconds until `deadline`, rounded up, for `poll`; -1 for no deadline.
    private static func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        guard seconds < Int64(Int32.max / 1000) - 1 else { return Int32.max }
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
