import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One non-blocking TCP connection to an origin, optionally with TLS, driven by the event loop.
///
/// It resolves the host off the loop (through its ``ConnectSettings/dnsCache``; an IP literal needs no lookup),
/// races the addresses with ``HappyEyeballsConnector``, runs the TLS handshake on the winner, then moves bytes:
/// writes are queued and flushed as the socket accepts them, reads go to the ``delegate``.
///
/// A Unix domain socket origin (`http+unix`, `https+unix`) skips all of that: no lookup, no race, no proxy; one
/// connect to the socket file, then TLS (named `localhost`) or not, as over TCP.
///
/// Through a proxy (its ``route``), the host resolved and connected to is the proxy's; a `CONNECT` or SOCKS5 tunnel
/// (``ProxyTunnel``) is opened before TLS when the route needs one, so that TLS runs with the origin.
///
/// `@unchecked Sendable` so that the resolver can hand the addresses back through ``EventLoop/execute(_:)``:
/// every stored property is only read or written on the loop thread (the resolver callback only captures the
/// reference and hops to the loop).
final class Connection: EventLoopHandler, @unchecked Sendable {
    /// Where the connection is in its life.
    enum State {
        case idle
        case resolving
        case connecting
        case tunneling
        case handshaking
        case ready
        case closed
    }

    /// The origin and the proxy, if any: the pool's key.
    let route: ConnectionRoute
    /// The origin the requests are for.
    var origin: Origin { route.origin }
    private let loop: EventLoop
    private let tlsContext: TLSContext?
    private(set) var state = State.idle
    private let connectSettings: ConnectSettings
    /// Whether the socket is a Unix domain socket (TCP options do not apply to it).
    private let isUnixSocket: Bool
    private var fd: Int32 = -1
    /// The DNS lookup this connection waits for, given up when it closes first.
    private var lookup: DNSCache.Ticket?
    private var connector: HappyEyeballsConnector?
    private var tls: TLSSession?
    private var tunnel: ProxyTunnel?
    private var wire = ByteQueue()
    private var plaintext = ByteQueue()
    private var interest = PollInterest(readable: true, writable: false)

    /// Who hears about reads and failures.
    var delegate: (any ConnectionDelegate)?
    /// Whether reading is paused because the reader's buffer is full (back-pressure); the socket is not polled for
    /// reads meanwhile, so TCP flow control slows the server down.
    private(set) var isReadingPaused = false
    /// Whether what was read is acknowledged at once (``Socket/acknowledgeNow(_:)``) each time the socket has been
    /// read empty: HTTP/2 sessions ask for it, since their responses come as several frames a server may write
    /// apart. (Not after a read that filled the buffer: more is queued, and the kernel acknowledges a stream of
    /// full segments by itself; a `setsockopt` per 64 KiB was 2.6% of an HTTP/2 download's CPU, and its ACKs 5%.)
    var acknowledgesEveryRead = false
    /// When bytes last moved on the socket (monotonic nanoseconds), for idle timeouts during long transfers.
    private(set) var lastProgress: UInt64 = 0
    /// When each step of opening the connection happened, for the timings of the exchange that opened it.
    private(set) var opening = ConnectionOpening()

    init(route: ConnectionRoute, loop: EventLoop, tlsContext: TLSContext?, connectSettings: ConnectSettings) {
        self.route = route
        self.loop = loop
        self.tlsContext = tlsContext
        self.connectSettings = connectSettings
        self.isUnixSocket = route.origin.unixSocketPath != nil
    }

    /// Whether the connection can carry a request now.
    var isReady: Bool { state == .ready }

    /// Whether the ready connection speaks HTTP/2: TLS's ALPN picked `h2`, or a cleartext connection (not to an
    /// HTTP proxy, which speaks HTTP/1.1) has prior knowledge.
    var speaksHTTP2: Bool {
        guard state == .ready else { return false }
        if let tls { return tls.negotiatedHTTP2 }
        return connectSettings.cleartextHTTP2 && !route.forwardsToHTTPProxy && !route.upgradesToWebSocket
    }

    /// Settings of the client this connection belongs to.
    var settings: ConnectSettings { connectSettings }

    /// Resolves and connects. Loop thread only.
    func start() {
        guard state == .idle else { return }
        state = .resolving
        opening.startedAt = MonotonicClock.now()
        if let path = route.origin.unixSocketPath {
            // Through the loop's queue, as an IP literal goes, so that `start()` never calls the delegate itself.
            loop.execute { [self] in connectToUnixSocket(path) }
            return
        }
        let cache = connectSettings.dnsCache
        let (host, port) = (route.connectHost, route.connectPort)
        // An IP literal or a cached answer goes through the loop's queue (no thread switch), so that `start()`
        // never calls the delegate itself.
        if let literal = NetworkAddress(ip: host, port: port) {
            loop.execute { [self] in resolved(.success([literal]), lookedUp: false) }
            return
        }
        if let answer = cache.cached(host: host, port: port) {
            loop.execute { [self] in resolved(answer) }
            return
        }
        lookup = cache.resolve(host: host, port: port) { [self] answer in
            loop.execute { [self] in resolved(answer) }
        }
    }

    /// How many bytes are queued and not yet accepted by the socket (plaintext and encrypted).
    var queuedBytes: Int { wire.count + plaintext.count }

    /// Queues `data` for sending and flushes what the socket takes. Loop thread only.
    func write(_ data: Data) {
        guard state == .ready else { return }
        if tls != nil { plaintext.append(data) } else { wire.append(data) }
        flush()
    }

    /// Closes the socket without telling the delegate. Loop thread only; idempotent.
    func close() {
        guard state != .closed else { return }
        state = .closed
        delegate = nil
        // Whatever phase it is in ends here: the lookup is given up (a resolver that never answers holds nothing),
        // every connection attempt is closed, then the socket and TLS.
        if let lookup { connectSettings.dnsCache.cancel(lookup) }
        lookup = nil
        connector?.cancel()
        connector = nil
        closeSocket()
        tls = nil
    }

    /// Stops reading until ``resumeReading()``. Loop thread only.
    func pauseReading() {
        guard !isReadingPaused else { return }
        isReadingPaused = true
        if state == .handshaking || state == .ready {
            setInterest(PollInterest(readable: false, writable: !wire.isEmpty))
        }
    }

    /// Reads again after ``pauseReading()``, starting with what TLS has already decrypted. Loop thread only.
    func resumeReading() {
        guard isReadingPaused else { return }
        isReadingPaused = false
        guard state == .ready else { return }
        setInterest(PollInterest(readable: true, writable: !wire.isEmpty))
        if let tls { drainTLS(tls) }
    }

    // MARK: EventLoopHandler

    func handle(readable: Bool, writable: Bool) {
        switch state {
        case .handshaking, .ready:
            if writable { flush() }
            if readable && state != .closed && !isReadingPaused { readAvailable() }
        case .tunneling:
            if writable { flush() }
            if readable && state == .tunneling { readTunnel() }
        case .connecting where fd >= 0:
            // Only a Unix socket's connect in progress is registered in this state (TCP attempts are the connector's).
            unixSocketConnectEnded()
        default:
            break
        }
    }

    // MARK: Connecting

    private func resolved(_ result: Result<[NetworkAddress], NativeTransportError>, lookedUp: Bool = true) {
        guard state == .resolving else { return }
        lookup = nil
        switch result {
        case .failure(let error):
            fail(.resolve(error))
        case .success(let addresses):
            state = .connecting
            let now = MonotonicClock.now()
            if lookedUp { opening.resolvedAt = now }
            opening.connectStartedAt = now
            let connector = HappyEyeballsConnector(
                loop: loop,
                addresses: addresses,
                attemptDelay: connectSettings.attemptDelay,
                attemptTimeout: connectSettings.attemptTimeout
            ) { [unowned self] result in connectorFinished(result) }
            self.connector = connector
            connector.start()
        }
    }

    private func connectorFinished(_ result: Result<(fd: Int32, address: NetworkAddress), NativeTransportError>) {
        connector = nil
        guard state == .connecting else {
            if case .success(let winner) = result { Socket.closeDescriptor(winner.fd) }
            return
        }
        switch result {
        case .success(let winner):
            guard loop.register(winner.fd, interest: PollInterest(readable: true, writable: false), handler: self)
            else {
                let error = errno
                Socket.closeDescriptor(winner.fd)
                let reason = "cannot watch the connection to \(winner.address): \(String(cString: strerror(error)))"
                fail(.connect(NativeTransportError(code: .connect, reason: reason, systemErrno: error)))
                return
            }
            fd = winner.fd
            interest = PollInterest(readable: true, writable: false)
            opening.connectedAt = MonotonicClock.now()
            connected()
        case .failure(let error):
            // Every address failed: the next connection asks the resolver again.
            connectSettings.dnsCache.forget(host: route.connectHost, port: route.connectPort)
            let target = route.proxy.map { "the proxy \($0)" } ?? "\(origin.host):\(origin.port)"
            let reason = "cannot connect to \(target): \(error.reason)"
            fail(.connect(NativeTransportError(code: .connect, reason: reason, systemErrno: error.systemErrno)))
        }
    }

    /// Starts the one connect to the socket file at `path`; no lookup, no Happy Eyeballs.
    private func connectToUnixSocket(_ path: String) {
        guard state == .resolving else { return }
        state = .connecting
        opening.connectStartedAt = MonotonicClock.now()
        guard let address = UnixSocketAddress.socketAddress(path: path) else {
            let reason = UnixSocketAddress.problem(with: path) ?? "the Unix socket path \(path) is not valid"
            fail(.connect(NativeTransportError(code: .connect, reason: reason)))
            return
        }
        switch Socket.connect(to: address) {
        case .connected(let socket):
            adoptUnixSocket(socket, interest: PollInterest(readable: true, writable: false), path: path)
            if state == .connecting { unixSocketConnected() }
        case .inProgress(let socket):
            adoptUnixSocket(socket, interest: PollInterest(readable: false, writable: true), path: path)
        case .failed(let error):
            failUnixSocket(path, error)
        }
    }

    private func adoptUnixSocket(_ socket: Int32, interest: PollInterest, path: String) {
        guard loop.register(socket, interest: interest, handler: self) else {
            let error = errno
            Socket.closeDescriptor(socket)
            failUnixSocket(path, error)
            return
        }
        fd = socket
        self.interest = interest
    }

    /// A connect in progress ended (the socket became writable or failed).
    private func unixSocketConnectEnded() {
        let error = Socket.pendingError(fd)
        if error == 0 && !Socket.isConnected(fd) { return }
        guard error == 0 else {
            failUnixSocket(route.origin.unixSocketPath ?? "", error)
            return
        }
        unixSocketConnected()
    }

    private func unixSocketConnected() {
        opening.connectedAt = MonotonicClock.now()
        connected()
    }

    /// Fails with `cannotConnect`, naming the socket file and why (`ENOENT`: no such file, `EACCES`: permission
    /// denied, `ECONNREFUSED`: nothing listens on it, `ENOTSOCK`: not a socket).
    private func failUnixSocket(_ path: String, _ error: Int32) {
        let reason = "cannot connect to the Unix socket \(path): \(String(cString: strerror(error)))"
        fail(.connect(NativeTransportError(code: .connect, reason: reason, systemErrno: error)))
    }

    private func connected() {
        setInterest(PollInterest(readable: true, writable: false))
        if let proxy = route.proxy, route.needsTunnel {
            state = .tunneling
            openTunnel(through: proxy)
        } else {
            secure()
        }
    }

    /// Starts TLS with the origin, or reports the connection ready when it has none.
    private func secure() {
        guard let tlsContext else {
            state = .ready
            delegate?.connectionIsReady(self)
            return
        }
        opening.handshakeStartedAt = MonotonicClock.now()
        do {
            // Over a Unix socket TLS names `localhost`: the socket has no host name of its own.
            tls = try TLSSession(context: tlsContext, origin: origin.tlsOrigin, socketPath: origin.unixSocketPath)
        } catch {
            fail(.tls(error))
            return
        }
        state = .handshaking
        driveHandshake()
    }

    private func driveHandshake() {
        guard let tls else { return }
        let step = tls.handshake()
        moveTLSOutput()
        flush()
        guard state == .handshaking else { return }
        switch step {
        case .needMore:
            break
        case .done:
            state = .ready
            opening.handshakeEndedAt = MonotonicClock.now()
            delegate?.connectionIsReady(self)
        case .failed(let error):
            fail(.tls(error))
        }
    }

    // MARK: Tunnelling through a proxy

    /// Sends the first bytes of the tunnel's handshake. A `socks5` proxy (not `socks5h`) is given an address, so the
    /// origin's name is resolved here first, through the client's DNS cache.
    private func openTunnel(through proxy: ProxyServer) {
        let (host, port) = (origin.host, origin.port)
        guard proxy.kind == .socks5, NetworkAddress(ip: host, port: port) == nil else {
            beginTunnel(ProxyTunnel(proxy: proxy, targetHost: host, targetPort: port))
            return
        }
        let cache = connectSettings.dnsCache
        if let answer = cache.cached(host: host, port: port) {
            loop.execute { [self] in resolvedForTunnel(answer, proxy: proxy) }
            return
        }
        cache.resolve(host: host, port: port) { [self] answer in
            loop.execute { [self] in resolvedForTunnel(answer, proxy: proxy) }
        }
    }

    private func resolvedForTunnel(_ result: Result<[NetworkAddress], NativeTransportError>, proxy: ProxyServer) {
        guard state == .tunneling, tunnel == nil else { return }
        switch result {
        case .failure(let error):
            fail(.resolve(error))
        case .success(let addresses):
            guard let address = addresses.first else {
                fail(.resolve(NativeTransportError(code: .nameResolution, reason: "\(origin.host) has no address")))
                return
            }
            beginTunnel(ProxyTunnel(proxy: proxy, targetHost: address.ip, targetPort: origin.port))
        }
    }

    private func beginTunnel(_ tunnel: ProxyTunnel) {
        self.tunnel = tunnel
        wire.append(tunnel.start())
        flush()
    }

    /// Reads the proxy's answers until the tunnel is open (then TLS starts, or the connection is ready) or fails.
    private func readTunnel() {
        let buffer = loop.scratch
        while state == .tunneling, tunnel != nil {
            guard let count = receive(into: buffer) else { return }
            if count == 0 {
                let reason = "the proxy \(route.proxy.map(String.init(describing:)) ?? "") closed the connection"
                fail(.socket(NativeTransportError(code: .closedByPeer, reason: reason)))
                return
            }
            lastProgress = MonotonicClock.now()
            guard var tunnel else { return }
            let step = tunnel.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            self.tunnel = tunnel
            switch step {
            case .needMore:
                continue
            case .send(let bytes):
                wire.append(bytes)
                flush()
            case .established:
                self.tunnel = nil
                secure()
                return
            case .failed(let error):
                fail(.proxy(error))
                return
            }
        }
    }

    // MARK: Reading

    /// Receives what the socket has into `buffer`: the byte count (0 when the peer closed), or `nil` when there is
    /// nothing more to read now or the read failed (the connection has then failed).
    private func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = Socket.receive(fd, into: buffer)
            if count >= 0 { return count }
            let error = errno
            if error == EINTR { continue }
            if error != EAGAIN && error != EWOULDBLOCK { fail(.socket(Self.socketError("read", error))) }
            return nil
        }
    }

    /// The body bytes a read in place leaves for the read buffer (``ConnectionDelegate/directReadTarget(reserve:)``).
    static let directReadReserve = 4096

    private func readAvailable() {
        let buffer = loop.scratch
        // Whether bytes were read that are not acknowledged yet (only counted when reads are acknowledged at once).
        var unacknowledged = false
        defer {
            // Once the socket is read empty (or reading paused); not on a connection that closed meanwhile.
            if unacknowledged && (state == .handshaking || state == .ready) { Socket.acknowledgeNow(fd) }
        }
        while (state == .handshaking || state == .ready) && !isReadingPaused {
            if tls == nil, let target = delegate?.directReadTarget(reserve: Self.directReadReserve) {
                // A large body read in place: no copy from the read buffer. Its last bytes come through the buffer,
                // in a read that also takes anything the server sent after the body.
                guard let count = receive(into: target) else { return }
                if count == 0 {
                    fail(.endOfStream)
                    return
                }
                lastProgress = MonotonicClock.now()
                delegate?.connection(self, didReadDirectly: count)
                if count < target.count { return }
                continue
            }
            guard let count = receive(into: buffer) else { return }
            if count == 0 {
                if tls != nil {
                    // TCP ended without TLS close_notify: the peer (or an attacker) cut the stream, so what came
                    // last may be truncated (a close-delimited body must not be taken as complete).
                    let error = NativeTransportError(
                        code: .closedByPeer, reason: "the TLS connection was closed without close_notify")
                    fail(.socket(error))
                } else {
                    fail(.endOfStream)
                }
                return
            }
            lastProgress = MonotonicClock.now()
            unacknowledged = acknowledgesEveryRead && !isUnixSocket
            if let tls {
                tls.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if state == .handshaking { driveHandshake() }
                if state == .ready { drainTLS(tls) }
            } else {
                delegate?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            if count < buffer.count { return }
        }
    }

    private func drainTLS(_ tls: TLSSession) {
        let buffer = loop.scratch
        while state == .ready && !isReadingPaused {
            switch tls.read(into: buffer) {
            case .bytes(let count):
                delegate?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .needMore:
                moveTLSOutput()
                if !wire.isEmpty { flush() }
                return
            case .closed:
                fail(.endOfStream)
                return
            case .failed(let error):
                fail(.tls(error))
                return
            }
        }
    }

    // MARK: Writing

    private func flush() {
        while state == .tunneling || state == .handshaking || state == .ready {
            if !wire.isEmpty {
                let fd = self.fd
                let sent = wire.writeFirst { bytes in Socket.send(fd, bytes) }
                if sent < 0 {
                    let error = errno
                    if error == EINTR { continue }
                    if error == EAGAIN || error == EWOULDBLOCK { break }
                    // A server refusing the client certificate may reset the connection right after its alert.
                    if let rejection = tls?.clientCertificateRejection(unreadOn: fd) {
                        fail(.tls(rejection))
                        return
                    }
                    fail(.socket(Self.socketError("write", error)))
                    return
                }
                if sent == 0 { break }
                lastProgress = MonotonicClock.now()
                continue
            }
            guard let tls, let piece = plaintext.take(upTo: 16 * 1024) else { break }
            if let error = piece.withUnsafeBytes({ tls.write($0) }) {
                fail(.tls(error))
                return
            }
            moveTLSOutput()
        }
        if state == .tunneling || state == .handshaking || state == .ready {
            setInterest(PollInterest(readable: state == .tunneling || !isReadingPaused, writable: !wire.isEmpty))
        }
        if state == .ready && wire.isEmpty && plaintext.isEmpty { delegate?.connectionDidDrain(self) }
    }

    private func moveTLSOutput() {
        while let output = tls?.takeOutput() { wire.append(output) }
    }

    // MARK: Closing

    private func fail(_ failure: ConnectionFailure) {
        let delegate = self.delegate
        close()
        delegate?.connection(self, didFail: failure)
    }

    private func setInterest(_ newInterest: PollInterest) {
        guard fd >= 0, newInterest != interest else { return }
        interest = newInterest
        loop.modify(fd, interest: newInterest)
    }

    private func closeSocket() {
        guard fd >= 0 else { return }
        loop.unregister(fd)
        Socket.closeDescriptor(fd)
        fd = -1
    }

    private static func socketError(_ operation: String, _ error: Int32) -> NativeTransportError {
        let reason = "\(operation) failed: \(String(cString: strerror(error)))"
        return NativeTransportError(code: .socket, reason: reason, systemErrno: error)
    }
}
