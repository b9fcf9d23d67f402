import BothamNetworking
import BothamTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP peer for the cancellation tests: it accepts one connection on `127.0.0.1`, sends its greeting if
/// it has one (an HTTP/2 server's first frames), reads until it has seen enough (``reached`` then yields once), and
/// from then on reads nothing and never answers, so the client is left waiting in whatever phase it is in (a TLS
/// handshake, a request body the socket no longer takes, an HTTP/2 SETTINGS or PING never acknowledged).
///
/// Its own thread does every blocking call (never Swift's cooperative pool), each bounded by a 50 ms poll, and
/// gives up after 30 s (scaled by `BOTHAM_TEST_TIME_SCALE`); ``stop()`` ends it sooner and closes its sockets.
final class SilentPeer: Sendable {
    /// The port it listens on.
    let port: Int
    /// Yields once, when the bytes read so far satisfied the peer's condition.
    let reached: AsyncStream<Void>
    private let reachedContinuation: AsyncStream<Void>.Continuation
    private let listener: BoundSocket
    private let greeting: [UInt8]
    private struct State {
        var stopped = false
        var draining: CheckedContinuation<Bool, Never>?
        var connection: Int32 = -1
    }
    private let state = Lock(State())

    /// A peer that sends `greeting` once it accepted the connection, and stops reading once `enough(bytesSoFar)`
    /// is true.
    init(greeting: [UInt8] = [], readsUntil enough: @escaping @Sendable ([UInt8]) -> Bool) throws {
        self.greeting = greeting
        listener = try BoundSocket(.ipv4)
        try listener.listen(backlog: 4)
        port = listener.address.port
        (reached, reachedContinuation) = AsyncStream<Void>.makeStream()
        let thread = Thread { [self] in run(enough) }
        thread.name = "SilentPeer"
        thread.start()
    }

    /// Sends the client a FIN (`shutdown(SHUT_WR)`) on the accepted connection, if there is one.
    func hangUp() {
        state.withLock { state in
            if state.connection >= 0 { _ = shutdown(state.connection, Int32(SHUT_WR)) }
        }
    }

    /// Reads on until the client's end of the connection: `true` when the client closed it within 5 s.
    func clientCloses() async -> Bool {
        await withCheckedContinuation { continuation in
            let handled = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.draining = continuation
                return true
            }
            if !handled { continuation.resume(returning: false) }
        }
    }

    /// Ends the thread and closes the sockets.
    func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.stopped = true
            defer { state.draining = nil }
            return state.draining
        }
        waiter?.resume(returning: false)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Whether `fd` becomes readable within 50 ms.
    private static func readable(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 50) == 1
    }

    private func run(_ enough: @Sendable ([UInt8]) -> Bool) {
        let giveUp = ContinuousClock.now + TestTimeScale.scaled(.seconds(30))
        var connection: Int32 = -1
        defer {
            state.withLock { state in
                state.stopped = true
                state.connection = -1
                state.draining?.resume(returning: false)
                state.draining = nil
            }
            if connection >= 0 { close(connection) }
            reachedContinuation.finish()
        }
        while connection < 0 {
            guard !isStopped, ContinuousClock.now < giveUp else { return }
            if Self.readable(listener.fd) { connection = accept(listener.fd, nil, nil) }
        }
        state.withLock { $0.connection = connection }
        if !greeting.isEmpty {
            let sent = greeting.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard sent == greeting.count else { return }
        }
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !enough(seen) {
            guard !isStopped, ContinuousClock.now < giveUp else { return }
            guard Self.readable(connection) else { continue }
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            seen.append(contentsOf: buffer[0..<count])
        }
        reachedContinuation.yield()
        // Silent from now on, until asked to read on to the client's end.
        var waiter: CheckedContinuation<Bool, Never>?
        while waiter == nil {
            guard ContinuousClock.now < giveUp else { return }
            let (stopped, draining) = state.withLock { state in
                defer { state.draining = nil }
                return (state.stopped, state.draining)
            }
            if stopped { return }
            waiter = draining
            if waiter == nil { _ = poll(nil, 0, 50) }  // 50 ms, then look again
        }
        let drainUntil = ContinuousClock.now + TestTimeScale.scaled(.seconds(5))
        while ContinuousClock.now < drainUntil {
            guard Self.readable(connection) else { continue }
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count <= 0 {
                waiter?.resume(returning: true)
                return
            }
        }
        waiter?.resume(returning: false)
    }
}
