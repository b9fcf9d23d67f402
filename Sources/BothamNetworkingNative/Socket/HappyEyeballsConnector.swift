#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Connects to the first of several addresses that answers, racing them as Happy Eyeballs v2 (RFC 8305) says, on
/// the event loop with non-blocking connects.
///
/// - The addresses are ordered IPv6 first, then alternating families (``interleaved(_:)``, RFC 8305 §4).
/// - An attempt starts every ``attemptDelay`` (the Connection Attempt Delay, RFC 8305 §5), or at once when the
///   attempts in flight have all failed; earlier attempts are never cancelled by a later one.
/// - The first attempt to connect wins: every other one is closed before ``completion`` hears of the winner (TLS
///   starts only then, on the winner).
/// - Each attempt may be bounded (``attemptTimeout``); the whole connect is bounded by the caller (the exchange's
///   connect timeout closes the connection, which ``cancel()``s this).
/// - When every address has failed, the error names each one with why it failed, in the order the loop saw them fail.
///
/// Loop thread only, from ``start()`` to the end.
final class HappyEyeballsConnector {
    /// The winner's descriptor (connected, non-blocking, not registered with the loop) and its address, or the
    /// error naming every address tried.
    typealias Completion = (Result<(fd: Int32, address: NetworkAddress), NativeTransportError>) -> Void

    /// One connect in flight: registered with the loop for writability.
    private final class Attempt: EventLoopHandler {
        let fd: Int32
        let address: NetworkAddress
        var timer: UInt64?
        weak var connector: HappyEyeballsConnector?

        init(fd: Int32, address: NetworkAddress, connector: HappyEyeballsConnector) {
            self.fd = fd
            self.address = address
            self.connector = connector
        }

        func handle(readable: Bool, writable: Bool) {
            let error = Socket.pendingError(fd)
            // A readiness event left over for a descriptor number that was closed and reused meanwhile finds a
            // connect still in progress (no error, no peer): keep waiting.
            if error == 0 && !Socket.isConnected(fd) { return }
            connector?.finished(self, error: error, timedOut: false)
        }
    }

    private let loop: EventLoop
    private let addresses: [NetworkAddress]
    /// Nanoseconds between the starts of two attempts.
    let attemptDelay: UInt64
    /// Nanoseconds one attempt may take, or `nil` for no limit of its own.
    let attemptTimeout: UInt64?
    private var completion: Completion?
    private var next = 0
    private var inFlight: [Attempt] = []
    private var delayTimer: UInt64?
    private var failures: [(address: NetworkAddress, reason: String)] = []
    private var lastErrno: Int32 = 0

    /// A connector for `addresses` (in the resolver's order), calling `completion` once on the loop thread unless
    /// cancelled first.
    init(
        loop: EventLoop, addresses: [NetworkAddress], attemptDelay: UInt64, attemptTimeout: UInt64?,
        completion: @escaping Completion
    ) {
        self.loop = loop
        self.addresses = Self.interleaved(addresses)
        self.attemptDelay = attemptDelay
        self.attemptTimeout = attemptTimeout
        self.completion = completion
    }

    /// IPv6 addresses first, then alternating families, each family in its given order (RFC 8305 §4 with a First
    /// Address Family Count of 1).
    static func interleaved(_ addresses: [NetworkAddress]) -> [NetworkAddress] {
        let v6 = addresses.filter { $0.family == .ipv6 }
        let v4 = addresses.filter { $0.family == .ipv4 }
        var ordered: [NetworkAddress] = []
        ordered.reserveCapacity(addresses.count)
        for index in 0..<max(v6.count, v4.count) {
            if index < v6.count { ordered.append(v6[index]) }
            if index < v4.count { ordered.append(v4[index]) }
        }
        return ordered
    }

    /// Starts the first attempt.
    func start() {
        startNext()
    }

    /// Closes every attempt; ``completion`` is not called. Idempotent.
    func cancel() {
        completion = nil
        stopAll()
    }

    // MARK: Private

    private func startNext() {
        if let delayTimer { loop.cancelTimer(delayTimer) }
        delayTimer = nil
        while completion != nil, next < addresses.count {
            let address = addresses[next]
            next += 1
            switch Socket.connect(to: address.socketAddress) {
            case .connected(let fd):
                win(fd: fd, address: address)
                return
            case .inProgress(let fd):
                let attempt = Attempt(fd: fd, address: address, connector: self)
                guard loop.register(fd, interest: PollInterest(readable: false, writable: true), handler: attempt)
                else {
                    record(address, errno)
                    Socket.closeDescriptor(fd)
                    continue
                }
                inFlight.append(attempt)
                if let attemptTimeout {
                    attempt.timer = loop.scheduleTimer(at: MonotonicClock.now() &+ attemptTimeout) {
                        [weak self, weak attempt] in
                        guard let self, let attempt else { return }
                        attempt.timer = nil
                        self.finished(attempt, error: ETIMEDOUT, timedOut: true)
                    }
                }
                if next < addresses.count {
                    delayTimer = loop.scheduleTimer(at: MonotonicClock.now() &+ attemptDelay) { [weak self] in
                        self?.delayTimer = nil
                        self?.startNext()
                    }
                }
                return
            case .failed(let error):
                record(address, error)
            }
        }
        if inFlight.isEmpty { failAll() }
    }

    /// An attempt's connect ended with `error` (0: connected), or ran out of time.
    private func finished(_ attempt: Attempt, error: Int32, timedOut: Bool) {
        guard completion != nil, let index = inFlight.firstIndex(where: { $0 === attempt }) else { return }
        inFlight.remove(at: index)
        stop(attempt)
        if error == 0 {
            // Handed over: the winner's descriptor was only unregistered by `stop(_:)` above, never closed.
            win(fd: attempt.fd, address: attempt.address)
            return
        }
        Socket.closeDescriptor(attempt.fd)
        let limit = attemptTimeout.map { "no answer within \($0 / 1_000_000) ms" }
        record(attempt.address, error, reason: timedOut ? limit : nil)
        // An attempt failed: the next address need not wait for the delay (RFC 8305 §5).
        startNext()
    }

    private func win(fd: Int32, address: NetworkAddress) {
        let completion = self.completion
        self.completion = nil
        stopAll()
        completion?(.success((fd: fd, address: address)))
    }

    private func failAll() {
        guard let completion else { return }
        self.completion = nil
        stopAll()
        let tried = failures.map { "\($0.address) (\($0.reason))" }.joined(separator: ", ")
        let reason = tried.isEmpty ? "no address to try" : "tried \(tried)"
        completion(.failure(NativeTransportError(code: .connect, reason: reason, systemErrno: lastErrno)))
    }

    private func record(_ address: NetworkAddress, _ error: Int32, reason: String? = nil) {
        lastErrno = error
        failures.append((address: address, reason: reason ?? String(cString: strerror(error))))
    }

    /// Unregisters an attempt and stops its timer (its descriptor stays open).
    private func stop(_ attempt: Attempt) {
        if let timer = attempt.timer { loop.cancelTimer(timer) }
        attempt.timer = nil
        loop.unregister(attempt.fd)
    }

    /// Closes every attempt in flight and stops the delay timer.
    private func stopAll() {
        if let delayTimer { loop.cancelTimer(delayTimer) }
        delayTimer = nil
        for attempt in inFlight {
            stop(attempt)
            Socket.closeDescriptor(attempt.fd)
        }
        inFlight.removeAll()
    }
}
