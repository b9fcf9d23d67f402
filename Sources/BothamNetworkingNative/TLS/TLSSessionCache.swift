import BothamNetworking
import CBothamOpenSSL

/// The resumable TLS sessions of one ``TLSContext``, by server (host, port and SNI), for TLS session resumption
/// (TLS 1.3 tickets, TLS 1.2 session IDs).
///
/// A context exists per configuration, ALPN offer and client identity, so sessions are never offered under other
/// pins, roots or identities. Only sessions from handshakes that passed every check (chain, host name, pins, ALPN)
/// are stored. Bounded: at most ``maximumServers`` servers, the least recently used dropped first, and
/// ``sessionsPerServer`` sessions each. A TLS 1.3 session is handed out once (RFC 8446 §C.4: tickets are single-use);
/// a TLS 1.2 one stays until replaced.
///
/// Thread-safe: every access holds the lock; the cache owns one reference to each stored `SSL_SESSION`.
final class TLSSessionCache: Sendable {
    /// Where a session may be resumed: the server's canonical host name (or IP literal) and port, and for a Unix
    /// domain socket (where TLS always names `localhost`) the socket's path.
    struct Server: Hashable {
        let host: String
        let port: Int
        var socketPath: String? = nil
    }

    /// Sessions stored per server.
    static let sessionsPerServer = 2
    /// Servers remembered.
    static let maximumServers = 64

    private struct Entry {
        /// Newest last; each pointer owns one reference.
        var sessions: [OpaquePointer]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Server: Entry] = [:]
        var clock: UInt64 = 0
        var fullHandshakes = 0
        var resumedHandshakes = 0
    }

    // `Lock` is `@unchecked Sendable`; the `SSL_SESSION` pointers inside are only touched under it, and OpenSSL
    // sessions are reference-counted with atomic counts, so handing one to another thread's `SSL` is safe.
    private let state = Lock(State())

    deinit {
        state.withLock { state in
            for session in state.entries.values.flatMap(\.sessions) { SSL_SESSION_free(session) }
            state.entries = [:]
        }
    }

    /// Takes ownership of `session` (one reference) as the newest for `server`.
    func store(_ session: OpaquePointer, for server: Server) {
        var dropped: [OpaquePointer] = []
        state.withLock { state in
            state.clock += 1
            var entry = state.entries[server] ?? Entry(sessions: [], lastUse: 0)
            entry.sessions.append(session)
            entry.lastUse = state.clock
            if entry.sessions.count > Self.sessionsPerServer {
                dropped.append(contentsOf: entry.sessions.prefix(entry.sessions.count - Self.sessionsPerServer))
                entry.sessions.removeFirst(entry.sessions.count - Self.sessionsPerServer)
            }
            state.entries[server] = entry
            if state.entries.count > Self.maximumServers,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key,
                let removed = state.entries.removeValue(forKey: oldest)
            {
                dropped.append(contentsOf: removed.sessions)
            }
        }
        for session in dropped { SSL_SESSION_free(session) }
    }

    /// Sets the newest session stored for `server` on `ssl`, if there is one, so its handshake tries to resume it;
    /// a TLS 1.3 session is removed (single use).
    func offer(to ssl: OpaquePointer, for server: Server) {
        var dropped: [OpaquePointer] = []
        state.withLock { state in
            guard var entry = state.entries[server] else { return }
            // A session OpenSSL has since marked not resumable (its connection ended with a fatal alert) goes.
            while let newest = entry.sessions.last, SSL_SESSION_is_resumable(newest) != 1 {
                dropped.append(entry.sessions.removeLast())
            }
            guard let newest = entry.sessions.last else {
                state.entries.removeValue(forKey: server)
                return
            }
            state.clock += 1
            entry.lastUse = state.clock
            // `SSL_set_session` takes its own reference.
            _ = SSL_set_session(ssl, newest)
            if SSL_SESSION_get_protocol_version(newest) >= TLS1_3_VERSION {
                dropped.append(entry.sessions.removeLast())
            }
            if entry.sessions.isEmpty {
                state.entries.removeValue(forKey: server)
            } else {
                state.entries[server] = entry
            }
        }
        for session in dropped { SSL_SESSION_free(session) }
    }

    /// Counts a finished handshake, resumed or full.
    func recordHandshake(resumed: Bool) {
        state.withLock { state in
            if resumed { state.resumedHandshakes += 1 } else { state.fullHandshakes += 1 }
        }
    }

    /// How many handshakes on this context were full and how many resumed a session (for tests and diagnostics).
    var handshakeCounts: (full: Int, resumed: Int) {
        state.withLock { ($0.fullHandshakes, $0.resumedHandshakes) }
    }
}
