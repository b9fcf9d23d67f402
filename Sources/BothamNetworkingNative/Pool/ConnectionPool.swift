import BothamHTTP2Wire
import BothamNetworking

/// Something that waits for a carrier from the pool (an exchange). Called on the loop thread.
protocol ConnectionPoolClient: AnyObject {
    /// Here is a carrier: an HTTP/1.1 ``Connection`` (`reused` when it already carried a request, so it may have
    /// gone stale, otherwise a new one that is still connecting unless ``Connection/isReady``), or a stream of an
    /// HTTP/2 session (`reused` unless the session was opened for this client).
    func assign(_ carrier: any ExchangeCarrier, reused: Bool)
}

/// Keep-alive connections per route (origin and proxy, ``ConnectionRoute``: a connection through a proxy is never
/// reused for a direct request or another proxy): at most `maxConnectionsPerHost` open (connecting, busy or idle), idle ones
/// reused most-recent-first and closed after `idleTimeout`, waiters served in order.
///
/// What the pool knows of a connection is its own (``OriginState``): whether the connection counts against its
/// origin's limit and, while it is idle, its expiry timer. Every connection the pool hands out comes back through
/// ``release(_:)`` or ``discard(_:)``.
///
/// A connection that turns out to speak HTTP/2 becomes an ``HTTP2Session`` (``adoptHTTP2(_:firstClient:)``): from
/// then on the route's calls share it, one stream each, up to the server's concurrent-stream limit, and wait for a
/// stream to end beyond it rather than open more connections (one connection per origin, as RFC 9113 §9.1 asks,
/// unless `HTTP2Options.maxConnectionsPerOrigin` allows more). A connection whose version is known before it
/// connects (cleartext prior knowledge, or TLS offering `h2` alone) counts as HTTP/2 from the start. Over TLS offering
/// both, what an origin speaks is known only once ALPN has answered: the first connection opened while it is unknown
/// is the route's *probe*, and calls that come meanwhile wait for it instead of opening connections of their own;
/// when it answers `h2` they share its session, when it answers `http/1.1` (or fails) they open connections as
/// HTTP/1.1 calls do.
/// A session that received GOAWAY takes no new streams and a new connection is opened for the next call; an unused
/// session closes after `idleTimeout`.
///
/// `@unchecked Sendable` so the client can reach it through ``EventLoop/execute(_:)``: all state is only read or
/// written on the loop thread.
final class ConnectionPool: ConnectionDelegate, ExchangeCarrierPool, @unchecked Sendable {
    /// An idle connection and the timer that closes it after `idleTimeout`.
    private struct IdleConnection {
        let connection: Connection
        let expiryTimer: UInt64
    }

    /// One origin's connections and waiters: a class, so that the pool changes it in place (a struct in the
    /// dictionary would copy its arrays on every change).
    private final class OriginState {
        /// The idle connections, the most recently released last.
        var idle: [IdleConnection] = []
        /// The connections that count against the origin's limit (connecting, busy or idle): each one from when the
        /// pool opens it until it is discarded or retired.
        var open: Set<ObjectIdentifier> = []
        var waiters: [any ConnectionPoolClient] = []
        var tlsContext: TLSContext?
        /// The HTTP/2 sessions that take new streams.
        var sessions: [HTTP2Session] = []
        /// Sessions that received GOAWAY and finish their streams (counted in `open` until they end).
        var draining: Set<ObjectIdentifier> = []
        /// Whether the origin speaks HTTP/2 (a session was made, or cleartext prior knowledge): calls wait for a
        /// stream of the one connection rather than opening more.
        var speaksHTTP2 = false
        /// Whether the route is done probing: an ALPN answer told what the origin speaks, or a probe failed (the
        /// calls waiting for it then open connections as HTTP/1.1 calls do, each with its own outcome).
        var probingDone = false
        /// The connection whose ALPN answer will tell, while it connects: other calls wait for it.
        var probe: ObjectIdentifier?
    }

    private let loop: EventLoop
    private let maxConnectionsPerHost: Int
    private let idleTimeout: UInt64
    private let connectSettings: ConnectSettings
    private var origins: [ConnectionRoute: OriginState] = [:]
    private var connectionsOpened = 0

    /// A pool whose new connections resolve and connect as `connectSettings` say.
    init(loop: EventLoop, maxConnectionsPerHost: Int, idleTimeout: UInt64, connectSettings: ConnectSettings) {
        self.loop = loop
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.idleTimeout = idleTimeout
        self.connectSettings = connectSettings
    }

    /// How many connections this pool has opened so far (for tests and diagnostics).
    var openedCount: Int { connectionsOpened }

    /// Gives `client` a connection along `route` now or when one frees up; new connections to an `https` origin use
    /// `tlsContext`. With `fresh`, idle connections of the route are closed first (they are suspected stale) so a
    /// new one is made.
    func acquire(
        _ route: ConnectionRoute,
        tlsContext: TLSContext?,
        for client: any ConnectionPoolClient,
        fresh: Bool
    ) {
        let state = self.state(of: route)
        if tlsContext != nil { state.tlsContext = tlsContext }
        if let session = state.sessions.first(where: \.hasRoom) {
            assignStream(of: session, to: client, first: false)
            return
        }
        if fresh { retireIdle(in: state) }
        if let idle = state.idle.popLast() {
            takeFromIdle(idle)
            client.assign(idle.connection, reused: true)
            return
        }
        if state.speaksHTTP2 && state.open.count - state.draining.count >= connectSettings.http2MaxConnections {
            // Sessions at their stream limit, or the connections that will be sessions: wait for a stream.
            state.waiters.append(client)
            return
        }
        if state.probe != nil {
            // What the origin speaks is about to be known: wait for it rather than open a connection that may be
            // one too many.
            state.waiters.append(client)
            return
        }
        if state.open.count < maxConnectionsPerHost {
            let connection = makeConnection(route, state: state)
            client.assign(connection, reused: false)
            connection.start()
            return
        }
        state.waiters.append(client)
    }

    private func state(of route: ConnectionRoute) -> OriginState {
        if let state = origins[route] { return state }
        let state = OriginState()
        origins[route] = state
        return state
    }

    /// Forgets a waiting client (it timed out or was cancelled).
    func removeWaiter(_ client: any ConnectionPoolClient, route: ConnectionRoute) {
        origins[route]?.waiters.removeAll { $0 === client }
    }

    /// Takes back a connection that finished a response and may be reused.
    func release(_ connection: Connection) {
        guard connection.isReady, let state = origins[connection.route] else {
            discard(connection)
            return
        }
        if !state.waiters.isEmpty {
            let client = state.waiters.removeFirst()
            client.assign(connection, reused: true)
            return
        }
        connection.delegate = self
        let deadline = MonotonicClock.now() &+ idleTimeout
        // The connection is held strongly: every way out of the idle list cancels this timer (`takeFromIdle`), and a
        // weak reference would send every retain and release of the connection down the runtime's slow path.
        let timer = loop.scheduleTimer(at: deadline) { [weak self] in
            self?.dropIdle(connection)
        }
        state.idle.append(IdleConnection(connection: connection, expiryTimer: timer))
    }

    /// Closes a connection that cannot be reused and lets a waiter open a new one.
    func discard(_ connection: Connection) {
        connection.close()
        detach(connection)
    }

    /// Stops counting `connection` and lets a waiter open a new one: once it is closed (``discard(_:)``), or when it
    /// switched protocols and stays open for the WebSocket that owns it now (which discards it at the end).
    func detach(_ connection: Connection) {
        guard let state = origins[connection.route], state.open.remove(ObjectIdentifier(connection)) != nil else {
            return
        }
        // A probe that failed told nothing, and the waiters must not fail one after another behind new probes.
        if state.probe == ObjectIdentifier(connection) {
            state.probe = nil
            state.probingDone = true
        }
        serveWaiters(connection.route, state: state)
    }

    /// Closes every idle connection and every HTTP/2 session without streams (the client is going away). In-flight
    /// exchanges finish normally.
    func shutdown() {
        for state in origins.values {
            retireIdle(in: state)
            for session in state.sessions where session.carrierCount == 0 { session.close() }
        }
    }

    // MARK: HTTP/2 sessions

    /// Makes `connection`, which has just become ready speaking HTTP/2, the route's shared session: `firstClient`
    /// (the exchange it was opened for) gets its first stream, then the waiters as far as the server's limit goes.
    func adoptHTTP2(_ connection: Connection, firstClient: any ConnectionPoolClient) {
        let state = self.state(of: connection.route)
        let session = HTTP2Session(connection: connection, pool: self, loop: loop)
        state.sessions.append(session)
        state.speaksHTTP2 = true
        state.probingDone = true
        if state.probe == ObjectIdentifier(connection) { state.probe = nil }
        assignStream(of: session, to: firstClient, first: true)
        serveWaiters(from: session, state: state)
    }

    /// A new connection of `connection`'s route became ready speaking HTTP/1.1 (TLS's ALPN picked it): calls to the
    /// route no longer wait for an HTTP/2 stream, they open connections as HTTP/1.1 calls do (a server behind a load
    /// balancer may answer either way).
    func connectionSpeaksHTTP1(_ connection: Connection) {
        guard let state = origins[connection.route] else { return }
        let wasProbe = state.probe == ObjectIdentifier(connection)
        if wasProbe { state.probe = nil }
        if connection.route.origin.isTLS { state.probingDone = true }
        let wasHTTP2 = state.speaksHTTP2 && !connectSettings.cleartextHTTP2
        if wasHTTP2 { state.speaksHTTP2 = false }
        if wasProbe || wasHTTP2 { serveWaiters(connection.route, state: state) }
    }

    /// A stream of `session` ended: waiters get one, or an unused session starts its idle timer.
    func sessionHasRoom(_ session: HTTP2Session) {
        guard let state = origins[session.connection.route] else { return }
        serveWaiters(from: session, state: state)
        guard session.carrierCount == 0, session.idleTimer == nil, !session.isOver else { return }
        session.idleTimer = loop.scheduleTimer(at: MonotonicClock.now() &+ idleTimeout) { [weak session] in
            guard let session else { return }
            session.idleTimer = nil
            session.close()
        }
    }

    /// `session` received GOAWAY: it takes no new streams, and the waiters may open a new connection.
    func sessionIsDraining(_ session: HTTP2Session) {
        guard let state = origins[session.connection.route] else { return }
        state.sessions.removeAll { $0 === session }
        state.draining.insert(ObjectIdentifier(session))
        serveWaiters(session.connection.route, state: state)
    }

    /// `session` ended: its connection no longer counts, and the waiters may open a new one.
    func sessionEnded(_ session: HTTP2Session) {
        if let timer = session.idleTimer { loop.cancelTimer(timer) }
        session.idleTimer = nil
        let route = session.connection.route
        guard let state = origins[route] else { return }
        state.sessions.removeAll { $0 === session }
        state.draining.remove(ObjectIdentifier(session))
        state.open.remove(ObjectIdentifier(session.connection))
        serveWaiters(route, state: state)
    }

    private func assignStream(of session: HTTP2Session, to client: any ConnectionPoolClient, first: Bool) {
        if let timer = session.idleTimer {
            loop.cancelTimer(timer)
            session.idleTimer = nil
        }
        client.assign(session.makeCarrier(first: first), reused: !first)
    }

    private func serveWaiters(from session: HTTP2Session, state: OriginState) {
        while !state.waiters.isEmpty, session.hasRoom {
            assignStream(of: session, to: state.waiters.removeFirst(), first: false)
        }
    }

    // MARK: ConnectionDelegate (idle connections)

    func connectionIsReady(_ connection: Connection) {}

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        dropIdle(connection)  // a server may not send anything between responses
    }

    func connection(_ connection: Connection, didFail failure: ConnectionFailure) {
        dropIdle(connection)
    }

    // MARK: Private

    private func makeConnection(_ route: ConnectionRoute, state: OriginState) -> Connection {
        connectionsOpened += 1
        let isTLS = route.origin.isTLS
        if connectSettings.cleartextHTTP2 && !isTLS && !route.forwardsToHTTPProxy {
            state.speaksHTTP2 = true
        }
        let tlsContext = isTLS ? state.tlsContext : nil
        // What the connection's TLS offers in ALPN decides what is known before it connects.
        let alpn = tlsContext?.alpn
        if alpn == .http2 {
            // ALPN offers `h2` alone: the connection speaks HTTP/2 or fails.
            state.speaksHTTP2 = true
        }
        let connection = Connection(
            route: route, loop: loop, tlsContext: tlsContext, connectSettings: connectSettings)
        state.open.insert(ObjectIdentifier(connection))
        if alpn == .http2OrHTTP1 && !state.probingDone && !state.speaksHTTP2 {
            state.probe = ObjectIdentifier(connection)
        }
        return connection
    }

    /// Stops the expiry timer of a connection leaving the idle list; the pool is no longer its delegate.
    private func takeFromIdle(_ idle: IdleConnection) {
        loop.cancelTimer(idle.expiryTimer)
        idle.connection.delegate = nil
    }

    /// Closes an idle connection that expired, failed or heard from the server, and lets a waiter open a new one.
    private func dropIdle(_ connection: Connection) {
        guard let state = origins[connection.route],
            let index = state.idle.firstIndex(where: { $0.connection === connection })
        else { return }
        takeFromIdle(state.idle.remove(at: index))
        discard(connection)
    }

    /// Closes every idle connection of `state` without serving its waiters.
    private func retireIdle(in state: OriginState) {
        for idle in state.idle {
            takeFromIdle(idle)
            idle.connection.close()
            state.open.remove(ObjectIdentifier(idle.connection))
        }
        state.idle.removeAll()
    }

    private func serveWaiters(_ route: ConnectionRoute, state: OriginState) {
        while !state.waiters.isEmpty, state.open.count < maxConnectionsPerHost {
            // An HTTP/2 origin needs one connection (or as many as configured): the others wait for its streams.
            if state.speaksHTTP2 && state.open.count - state.draining.count >= connectSettings.http2MaxConnections {
                return
            }
            // A probe is connecting: the others wait for its answer.
            if state.probe != nil { return }
            let client = state.waiters.removeFirst()
            let connection = makeConnection(route, state: state)
            client.assign(connection, reused: false)
            connection.start()
        }
    }
}
