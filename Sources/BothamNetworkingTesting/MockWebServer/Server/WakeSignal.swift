#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot, level-triggered "shut down now" signal every server thread can wait on.
///
/// It is a pipe: `signal()` writes one byte that is never read, so the read end stays readable forever and every
/// `poll` that includes it, now or later, returns at once. All blocking in the server goes through `wait` or
/// `sleep`, so a single `signal()` wakes every thread.
struct WakeSignal: Sendable {
    /// How `wait(for:events:timeout:)` ended.
    enum WaitResult {
        case ready
        case signalled
        case timedOut
    }

    let readEnd: Int32
    let writeEnd: Int32

    /// Creates the pipe and registers both ends.
    static func make(registry: DescriptorRegistry) throws(MockWebServerError) -> WakeSignal {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .systemCallFailed(operation: "pipe", errno: SystemCalls.lastError)
        }
        registry.register(ends[0])
        registry.register(ends[1])
        guard SystemCalls.makeNonBlocking(ends[0]), SystemCalls.makeNonBlocking(ends[1]) else {
            let code = SystemCalls.lastError
            registry.close(ends[0])
            registry.close(ends[1])
            throw .systemCallFailed(operation: "fcntl", errno: code)
        }
        return WakeSignal(readEnd: ends[0], writeEnd: ends[1])
    }

    /// Raises the signal. Safe to call more than once.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether the signal has been raised.
    var isSignalled: Bool {
        var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, 1, 0) != 0
    }

    /// Waits until `descriptor` has one of `events`, the signal is raised, or `timeout` passes (`nil` waits
    /// without limit). The signal wins when both happen.
    func wait(for descriptor: Int32, events: Int16, timeout: Duration?) -> WaitResult {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            var descriptors = [
                pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: descriptor, events: events, revents: 0),
            ]
            let result = poll(&descriptors, 2, Self.pollTimeout(until: deadline))
            if result < 0 {
                if SystemCalls.lastError == EINTR { continue }
                return .signalled
            }
            if descriptors[0].revents != 0 { return .signalled }
            if descriptors[1].revents != 0 { return .ready }
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
        }
    }

    /// Sleeps for `duration` unless the signal is raised first. Returns `false` when woken by the signal.
    func sleep(for duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
            let result = poll(&descriptors, 1, Self.pollTimeout(until: deadline))
            if result > 0 { return false }
            if result < 0, SystemCalls.lastError != EINTR { return false }
        }
        return !isSignalled
    }

    /// Milliseconds until `deadline`, rounded up and clamped to what `poll` accepts; -1 for no deadline.
    private static func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        guard seconds < Int64(Int32.max / 1000) - 1 else { return Int32.max }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
