#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why reading from or writing to a connection stopped.
enum ConnectionIOError: Error, Equatable {
    /// The peer closed its side before the expected bytes arrived.
    case endOfStream
    /// A line was longer than the caller allowed.
    case lineTooLong
    /// The server is shutting down.
    case shutDown
    /// The socket failed (reset by the peer, broken pipe, …).
    case system(Int32)
}

/// Buffered, shutdown-aware reading and writing on one non-blocking connection socket.
///
/// Every wait goes through the server's `WakeSignal`, so a thread blocked here returns as soon as the server shuts
/// down.
struct ConnectionIO {
    let descriptor: Int32
    let wake: WakeSignal

    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    init(descriptor: Int32, wake: WakeSignal) {
        self.descriptor = descriptor
        self.wake = wake
    }

    /// Bytes received but not consumed yet.
    private var buffered: Int { buffer.count - start }

    /// Reads one line ended by LF (a CR before it is dropped). Returns `nil` at a clean end of stream before any
    /// byte of the line; throws `.lineTooLong` once more than `maxLength` bytes arrive without a line end.
    mutating func readLine(maxLength: Int) throws(ConnectionIOError) -> [UInt8]? {
        while true {
            if let end = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[start..<end])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                guard line.count <= maxLength else { throw .lineTooLong }
                start = end + 1
                scanned = 0
                return line
            }
            scanned = buffered
            guard buffered <= maxLength + 1 else { throw .lineTooLong }
            guard try fill() else {
                if buffered == 0 { return nil }
                throw .endOfStream
            }
        }
    }

    /// Reads exactly `count` bytes.
    mutating func readBytes(_ count: Int) throws(ConnectionIOError) -> [UInt8] {
        while buffered < count {
            guard try fill() else { throw .endOfStream }
        }
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        scanned = 0
        return bytes
    }

    /// Whether the connection starts with `prefix`, reading only as far as needed to tell (a first byte that
    /// differs settles it). Nothing is consumed. `false` when the stream ends first.
    mutating func startsWith(_ prefix: [UInt8]) throws(ConnectionIOError) -> Bool {
        while true {
            let available = min(buffered, prefix.count)
            guard buffer[start..<(start + available)].elementsEqual(prefix[0..<available]) else { return false }
            if available == prefix.count { return true }
            guard try fill() else { return false }
        }
    }

    /// The bytes buffered or, when none are, the next bytes received (waiting for them); `nil` at end of stream.
    mutating func readAvailable() throws(ConnectionIOError) -> [UInt8]? {
        if buffered == 0 {
            guard try fill() else { return nil }
        }
        let bytes = Array(buffer[start...])
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
        return bytes
    }

    /// The bytes received but not consumed yet, now consumed: what follows a request when the protocol switches.
    mutating func takeBuffered() -> [UInt8] {
        let bytes = Array(buffer[start...])
        buffer.removeAll(keepingCapacity: false)
        start = 0
        scanned = 0
        return bytes
    }

    /// Receives more bytes into the buffer. Returns `false` at end of stream.
    private mutating func fill() throws(ConnectionIOError) -> Bool {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let received = chunk.withUnsafeMutableBytes { SystemCalls.receive(descriptor, into: $0) }
            if received > 0 {
                buffer.append(contentsOf: chunk[0..<received])
                return true
            }
            if received == 0 { return false }
            let code = SystemCalls.lastError
            if code == EINTR { continue }
            guard SystemCalls.wouldBlock(code) else { throw .system(code) }
            if wake.wait(for: descriptor, events: Int16(POLLIN), timeout: nil) == .signalled {
                throw .shutDown
            }
        }
    }

    /// Writes every byte of `bytes`.
    func write(_ bytes: [UInt8]) throws(ConnectionIOError) {
        let failure = bytes.withUnsafeBytes { raw in
            capturingFailure { () throws(ConnectionIOError) in try write(raw) }
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `bytes`, waiting (without limit, but interrupted by shutdown) whenever the socket's send
    /// buffer is full, so a client that stops reading stops the writer. `sent` is called after each `send` with
    /// the number of bytes the kernel accepted.
    func write(_ bytes: UnsafeRawBufferPointer, sent: (Int) -> Void = { _ in }) throws(ConnectionIOError) {
        var offset = 0
        while offset < bytes.count {
            let count = SystemCalls.send(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if count > 0 {
                offset += count
                sent(count)
                continue
            }
            let code = SystemCalls.lastError
            if count < 0, code == EINTR { continue }
            guard count < 0, SystemCalls.wouldBlock(code) else { throw .system(count < 0 ? code : EPIPE) }
            if wake.wait(for: descriptor, events: Int16(POLLOUT), timeout: nil) == .signalled {
                throw .shutDown
            }
        }
    }

    /// Sleeps for `duration`, throwing `.shutDown` if the server shuts down meanwhile.
    func pause(for duration: Duration) throws(ConnectionIOError) {
        guard duration > .zero else { return }
        guard wake.sleep(for: duration) else { throw .shutDown }
    }

    /// Waits, sending nothing, until the client closes its side of the connection (or resets it) or the server shuts
    /// down; bytes the client sends meanwhile are read and discarded. Returns whether the client closed it.
    func waitForPeerClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard wake.wait(for: descriptor, events: Int16(POLLIN), timeout: nil) == .ready else { return false }
            let received = chunk.withUnsafeMutableBytes { SystemCalls.receive(descriptor, into: $0) }
            if received == 0 { return true }
            if received < 0 {
                let code = SystemCalls.lastError
                if code != EINTR, !SystemCalls.wouldBlock(code) { return true }
            }
        }
    }

    /// A lingering close, used after an error response: stop sending, then read and discard what the client is
    /// still sending (for up to `limit` bytes or `duration`), so the kernel does not answer unread data with a
    /// reset that could destroy the response before the client reads it.
    func drainAfterHalfClose(limit: Int = 1 << 20, duration: Duration = .seconds(1)) {
        SystemCalls.shutdownWrites(descriptor)
        let deadline = ContinuousClock.now + duration
        var discarded = 0
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while discarded < limit {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return }
            guard wake.wait(for: descriptor, events: Int16(POLLIN), timeout: remaining) == .ready else { return }
            let received = chunk.withUnsafeMutableBytes { SystemCalls.receive(descriptor, into: $0) }
            if received > 0 {
                discarded += received
            } else if received == 0 || !SystemCalls.wouldBlock(SystemCalls.lastError) {
                return
            }
        }
    }
}

/// Runs `body` and returns the error it threw, if any: a bridge for calling typed-throwing code inside the
/// `withUnsafeBytes` closures of `Array` and `Data`, which only rethrow untyped errors.
func capturingFailure(_ body: () throws(ConnectionIOError) -> Void) -> ConnectionIOError? {
    do throws(ConnectionIOError) {
        try body()
        return nil
    } catch {
        return error
    }
}
