import BothamNetworking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running server: the listening socket, the accept thread, one thread per connection, the response queue
/// and dispatcher, and the recorded requests.
///
/// Threads hold this object, not ``MockWebServer``, so dropping the last reference to the server runs its
/// `deinit`, which shuts this down.
final class ServerCore: Sendable {
    let configuration: MockWebServer.Configuration
    let descriptors: DescriptorRegistry
    let wake: WakeSignal
    let listener: ListeningSocket
    let inbox = RequestInbox()
    /// The response body bytes (chunk framing excluded) handed to the socket so far, over every connection.
    let responseBodyBytesWritten = Lock(0)
    /// How many connections the client closed while the server held a ``SocketPolicy/noResponse`` answer back.
    let clientClosedConnections = Lock(0)
    private let state: Lock<State>

    private struct State {
        var queue: [MockResponse] = []
        var dispatcher: (@Sendable (RecordedRequest) -> MockResponse)?
        var defaultResponse: MockResponse
        var isShutDown = false
        var acceptThread: ServerThread?
        var connectionThreads: [Int: ServerThread] = [:]
        var finishedConnections: [Int] = []
        var nextConnectionIndex = 0
        var runningThreads = 0
        /// The HTTP/2 responder threads running now, each with the index of its connection.
        var responders: [Int: (thread: ServerThread, connection: Int)] = [:]
        var nextResponder = 0
    }

    /// The most connections accepted in one wake-up before checking for shutdown again.
    private static let acceptBatch = 64

    /// Binds the listening socket and starts the accept thread.
    init(configuration: MockWebServer.Configuration) throws(MockWebServerError) {
        self.configuration = configuration
        let descriptors = DescriptorRegistry()
        let wake = try WakeSignal.make(registry: descriptors)
        do {
            if let path = configuration.unixSocketPath {
                listener = try ListeningSocket.openUnix(
                    path: path, backlog: Int32(clamping: configuration.backlog), registry: descriptors)
            } else {
                listener = try ListeningSocket.open(
                    host: configuration.host,
                    port: configuration.port,
                    backlog: Int32(clamping: configuration.backlog),
                    registry: descriptors
                )
            }
        } catch {
            descriptors.close(wake.readEnd)
            descriptors.close(wake.writeEnd)
            throw error
        }
        self.descriptors = descriptors
        self.wake = wake
        state = Lock(State(defaultResponse: configuration.defaultResponse))
        state.withLock { $0.runningThreads += 1 }
        do {
            let thread = try ServerThread.spawn { [self] in
                acceptConnections()
                state.withLock { $0.runningThreads -= 1 }
            }
            state.withLock { $0.acceptThread = thread }
        } catch {
            state.withLock { $0.runningThreads -= 1 }
            shutdown()
            throw error
        }
    }

    // MARK: Responses

    func enqueue(_ responses: [MockResponse]) {
        state.withLock { $0.queue.append(contentsOf: responses) }
    }

    func setDispatcher(_ dispatcher: (@Sendable (RecordedRequest) -> MockResponse)?) {
        let replaced = state.withLock { state in
            defer { state.dispatcher = dispatcher }
            return state.dispatcher
        }
        // Released outside the lock: a closure may hold the last reference to something whose deinit calls back.
        _ = replaced
    }

    func setDefaultResponse(_ response: MockResponse) {
        state.withLock { $0.defaultResponse = response }
    }

    var queuedResponseCount: Int {
        state.withLock { $0.queue.count }
    }

    /// Picks `request`'s response and records it: the dispatcher's answer, else the next queued response, else
    /// the default response. The dispatcher runs outside the lock, so it may call back into the server.
    ///
    /// A queued response is taken off the queue *before* the request is recorded, so a caller of
    /// ``MockWebServer/takeRequest(timeout:)`` that sees this request knows its response is spoken for: a request the
    /// client sends after that gets the next response. (Recording first let a later request, on another connection,
    /// take this one's response while this thread had not yet reached the queue.)
    func record(_ request: RecordedRequest) -> MockResponse {
        reserve(request)()
    }

    /// ``record(_:)`` in two steps, for the HTTP/2 reader, which must not wait for a user's dispatcher while other
    /// streams have frames to read: the response is spoken for and the request recorded now, in arrival order;
    /// the returned closure (run on the stream's own thread) calls the dispatcher, if one is set.
    func reserve(_ request: RecordedRequest) -> @Sendable () -> MockResponse {
        let (dispatcher, response) = state.withLock {
            state -> ((@Sendable (RecordedRequest) -> MockResponse)?, MockResponse) in
            if let dispatcher = state.dispatcher { return (dispatcher, state.defaultResponse) }
            if !state.queue.isEmpty { return (nil, state.queue.removeFirst()) }
            return (nil, state.defaultResponse)
        }
        inbox.record(request)
        return { dispatcher?(request) ?? response }
    }

    // MARK: Threads

    var runningThreadCount: Int {
        state.withLock { $0.runningThreads }
    }

    /// How many connections the accept thread has taken so far.
    var acceptedConnectionCount: Int {
        state.withLock { $0.nextConnectionIndex }
    }

    private func acceptConnections() {
        while true {
            joinFinishedConnections()
            switch wake.wait(for: listener.descriptor, events: Int16(POLLIN), timeout: .seconds(1)) {
            case .signalled:
                return
            case .timedOut:
                continue
            case .ready:
                var accepted = 0
                while accepted < Self.acceptBatch, let connection = listener.acceptConnection(registry: descriptors) {
                    startConnection(connection)
                    accepted += 1
                }
                if accepted == 0, !SystemCalls.wouldBlock(SystemCalls.lastError) {
                    // Out of descriptors or a similar transient failure: back off instead of spinning.
                    guard wake.sleep(for: .milliseconds(10)) else { return }
                }
            }
        }
    }

    private func startConnection(_ descriptor: Int32) {
        let index = state.withLock { state in
            state.runningThreads += 1
            defer { state.nextConnectionIndex += 1 }
            return state.nextConnectionIndex
        }
        do {
            let thread = try ServerThread.spawn { [self] in
                ConnectionHandler(core: self, descriptor: descriptor, connectionIndex: index).run()
                descriptors.close(descriptor)
                state.withLock { state in
                    state.finishedConnections.append(index)
                    state.runningThreads -= 1
                }
            }
            state.withLock { $0.connectionThreads[index] = thread }
        } catch {
            state.withLock { $0.runningThreads -= 1 }
            descriptors.close(descriptor)
        }
    }

    /// Joins the threads of connections that have ended, so finished threads do not pile up.
    private func joinFinishedConnections() {
        let finished = state.withLock { state in
            defer { state.finishedConnections.removeAll() }
            return state.finishedConnections.compactMap { state.connectionThreads.removeValue(forKey: $0) }
        }
        for thread in finished {
            thread.join()
        }
    }

    /// Registers the calling thread as an HTTP/2 responder of connection `connection` (counted in
    /// ``runningThreadCount``, and known to ``shutdown()`` when a dispatcher calls it there); returns its token
    /// for ``responderEnded(_:)``.
    func responderStarted(connection: Int) -> Int {
        state.withLock { state in
            defer { state.nextResponder += 1 }
            state.runningThreads += 1
            state.responders[state.nextResponder] = (ServerThread.current, connection)
            return state.nextResponder
        }
    }

    /// The responder of `token` is about to end.
    func responderEnded(_ token: Int) {
        state.withLock { state in
            state.runningThreads -= 1
            state.responders[token] = nil
        }
    }

    // MARK: Shutdown

    var isShutDown: Bool {
        state.withLock { $0.isShutDown }
    }

    /// Stops accepting, wakes and joins every thread, closes every descriptor and fails pending takers.
    /// Idempotent; later calls return at once.
    func shutdown() {
        let acceptThread: ServerThread?? = state.withLock { state in
            guard !state.isShutDown else { return .none }
            state.isShutDown = true
            defer { state.acceptThread = nil }
            return .some(state.acceptThread)
        }
        guard let acceptThread else { return }
        wake.signal()
        var calledFromServerThread = acceptThread?.isCurrent ?? false
        acceptThread?.join()
        // The accept thread has ended, so no connection thread can be added any more.
        let (connections, ownConnection) = state.withLock { state in
            defer {
                state.connectionThreads.removeAll()
                state.finishedConnections.removeAll()
            }
            // Called from an HTTP/2 responder (its dispatcher): its connection's thread joins it, so it must not
            // be joined here.
            let own = state.responders.values.first { $0.thread.isCurrent }?.connection
            return (state.connectionThreads, own)
        }
        for (index, thread) in connections {
            calledFromServerThread = calledFromServerThread || thread.isCurrent || index == ownConnection
            if index == ownConnection {
                thread.detach()
            } else {
                thread.join()
            }
        }
        descriptors.close(listener.descriptor)
        // The socket file this server created goes with it: a client now finds no file there.
        if let path = configuration.unixSocketPath { unlink(path) }
        if !calledFromServerThread {
            // Only when every thread has been joined: a detached thread (shutdown called from a dispatcher) may
            // still poll the wake pipe, so it is left open in that case.
            descriptors.close(wake.readEnd)
            descriptors.close(wake.writeEnd)
        }
        inbox.shutDown()
        // Drop the dispatcher (outside the lock), breaking a cycle when it captures the server itself.
        setDispatcher(nil)
    }
}
