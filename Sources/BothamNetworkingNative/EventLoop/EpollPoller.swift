import CBothamNativeShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Level-triggered epoll with an eventfd for wake-ups (Linux).
///
/// `@unchecked Sendable`: the descriptors are immutable after `init`; `wake()` (the only call made off the loop)
/// writes to the eventfd, which the kernel makes thread-safe; every other method runs on the loop thread only.
final class EpollPoller: Poller, @unchecked Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    private var fds = [Int32](repeating: 0, count: 64)
    private var masks = [UInt32](repeating: 0, count: 64)

    init?() {
        let epollFD = botham_epoll_create()
        guard epollFD >= 0 else { return nil }
        let wakeFD = botham_eventfd()
        guard wakeFD >= 0 else {
            close(epollFD)
            return nil
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        guard botham_epoll_ctl(epollFD, 1, wakeFD, BOTHAM_POLL_IN) == 0 else { return nil }
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    private static func mask(_ interest: PollInterest) -> UInt32 {
        var mask: UInt32 = 0
        if interest.readable { mask |= BOTHAM_POLL_IN }
        if interest.writable { mask |= BOTHAM_POLL_OUT }
        return mask
    }

    func register(_ fd: Int32, interest: PollInterest) -> Bool {
        botham_epoll_ctl(epollFD, 1, fd, Self.mask(interest)) == 0
    }

    func modify(_ fd: Int32, interest: PollInterest) {
        _ = botham_epoll_ctl(epollFD, 3, fd, Self.mask(interest))
    }

    func unregister(_ fd: Int32) {
        _ = botham_epoll_ctl(epollFD, 2, fd, 0)
    }

    func wait(timeoutMillis: Int32) -> [PollEvent] {
        let count = fds.withUnsafeMutableBufferPointer { fdBuffer in
            masks.withUnsafeMutableBufferPointer { maskBuffer in
                botham_epoll_wait(epollFD, fdBuffer.baseAddress, maskBuffer.baseAddress, 64, timeoutMillis)
            }
        }
        guard count > 0 else { return [] }
        var events: [PollEvent] = []
        events.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let fd = fds[index]
            let mask = masks[index]
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
                continue
            }
            let failed = mask & (BOTHAM_POLL_ERR | BOTHAM_POLL_HUP) != 0
            events.append(
                PollEvent(
                    fd: fd, readable: failed || mask & BOTHAM_POLL_IN != 0,
                    writable: failed || mask & BOTHAM_POLL_OUT != 0)
            )
        }
        return events
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }
}
