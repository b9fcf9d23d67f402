#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fallback poller for platforms without epoll (Apple platforms until a kqueue poller lands): `poll(2)` over
/// the registered descriptors and a pipe for wake-ups. O(n) per wait, fine for a client's handful of connections.
///
/// `@unchecked Sendable`: the pipe descriptors are immutable after `init`; `wake()` (the only call made off the
/// loop) writes one byte to the pipe, which the kernel makes thread-safe; every other method runs on the loop
/// thread only.
final class PortablePoller: Poller, @unchecked Sendable {
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var interests: [Int32: PollInterest] = [:]

    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func register(_ fd: Int32, interest: PollInterest) -> Bool {
        interests[fd] = interest
        return true
    }

    func modify(_ fd: Int32, interest: PollInterest) {
        interests[fd] = interest
    }

    func unregister(_ fd: Int32) {
        interests[fd] = nil
    }

    func wait(timeoutMillis: Int32) -> [PollEvent] {
        var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        for (fd, interest) in interests {
            var events: Int16 = 0
            if interest.readable { events |= Int16(POLLIN) }
            if interest.writable { events |= Int16(POLLOUT) }
            entries.append(pollfd(fd: fd, events: events, revents: 0))
        }
        let count = entries.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMillis)
        }
        guard count > 0 else { return [] }
        var events: [PollEvent] = []
        for entry in entries where entry.revents != 0 {
            if entry.fd == wakeRead {
                var scratch = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &scratch, 64) > 0 {}
                continue
            }
            let failed = entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
            events.append(
                PollEvent(
                    fd: entry.fd,
                    readable: failed || entry.revents & Int16(POLLIN) != 0,
                    writable: failed || entry.revents & Int16(POLLOUT) != 0
                )
            )
        }
        return events
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
