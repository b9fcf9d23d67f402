import BothamNetworking

/// Something that waits for a connection from the pool (an exchange). Called on the loop thread.
protocol ConnectionPoolClient: AnyObject {
    /// Here is a connection: `reused` when it already carried a request (it may have gone stale), otherwise a new
    /// one that is still connecting unless ``Connection/isReady``.
    func assign(_ connection: Connection, reused: Bool)
}

/// Keep-alive connections per route (origin and proxy, ``ConnectionRoute``: a connection through a proxy is never
/// reused for a direct request or another proxy): at most `maxConnectionsPerHost` open (connecting, busy or idle), idle ones
/// reused most-recent-first and closed after `idleTimeout`, waiters served in order.
///
/// What the pool knows of a connection is its own (``OriginState``): whether the connection counts against its
/// origin's limit and, while it is idle, its expiry timer. Every connection the pool hands out comes back through
/// ``release(_:)`` or ``discard(_:)``.
///
/// `@unchecked Sendable` so the client can reach it through ``EventLoop/execute(_:)``: all state is only read or
/// written on the loop thread.
final class ConnectionPool: ConnectionDelegate, @unchecked Sendable {
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
        if fresh { retireIdle(in: state) }
        if let idle = state.idle.popLast() {
            takeFromIdle(idle)
            client.assign(idle.connection, reused: true)
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
        let timer = loop.scheduleTimer(at: deadline) { [weak self, weak connection] in
            guard let self, let connection else { return }
            self.dropIdle(connection)
        }
        state.idle.append(IdleConnection(connection: connection, expiryTimer: timer))
    }

    /// Closes a connection that cannot be reused and lets a waiter open a new one.
    func discard(_ connection: Connection) {
        connection.close()
        guard let state = origins[connection.route], state.open.remove(ObjectIdentifier(connection)) != nil else {
            return
        }
        serveWaiters(connection.route, state: state)
    }

    /// Closes every idle connection (the client is going away). In-flight exchanges finish normally.
    func shutdown() {
        for state in origins.values { retireIdle(in: state) }
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
        let tlsContext = route.origin.isTLS ? state.tlsContext : nil
        let connection = Connection(
            route: route, loop: loop, tlsContext: tlsContext, connectSettings: connectSettings)
        state.open.insert(ObjectIdentifier(connection))
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
            let client = state.waiters.removeFirst()
            let connection = makeConnection(route, state: state)
            client.assign(connection, reused: false)
            connection.start()
        }
    }
}
