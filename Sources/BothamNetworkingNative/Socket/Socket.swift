#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the non-blocking socket calls the connections use.
enum Socket {
    /// The outcome of starting a connect.
    enum ConnectStart {
        /// Connected at once (loopback sometimes does).
        case connected(Int32)
        /// In progress: wait for writability, then check ``pendingError(_:)``.
        case inProgress(Int32)
        /// Failed with `errno`.
        case failed(Int32)
    }

    /// Creates a non-blocking, close-on-exec stream socket (TCP with `TCP_NODELAY`, or a Unix domain socket) and
    /// starts connecting it to `address`.
    static func connect(to address: SocketAddress) -> ConnectStart {
        #if os(Linux)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.family, type, 0)
        #else
            let fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(errno) }
        #if !os(Linux)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var noSigPipe: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if address.family != AF_UNIX {
            var noDelay: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                systemConnect(fd, sockaddrPointer, address.length)
            }
        }
        if result == 0 { return .connected(fd) }
        let error = errno
        if error == EINPROGRESS || error == EINTR { return .inProgress(fd) }
        close(fd)
        return .failed(error)
    }

    /// Acknowledges what `fd` received at once instead of delaying the ACK (Linux's `TCP_QUICKACK`, which lasts
    /// until the kernel turns it off again: set it after each read). A server that writes a response in several
    /// small segments with Nagle's algorithm on (nginx over cleartext HTTP/2 sends HEADERS and DATA apart) waits
    /// for the ACK of the first before sending the rest; a delayed ACK turns that into 40 ms per response.
    /// Elsewhere a no-op.
    static func acknowledgeNow(_ fd: Int32) {
        #if os(Linux)
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// The result of a finished non-blocking connect: 0 or an `errno`.
    static func pendingError(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 { return errno }
        return error
    }

    /// Whether `fd` has a peer (`getpeername` succeeds): a non-blocking connect has completed.
    static func isConnected(_ fd: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
    }

    /// Sends without raising `SIGPIPE`. Returns the count, or -1 with `errno`.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if os(Linux)
            return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
            return Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// Reads into `buffer`. Returns the count (0 at end of stream), or -1 with `errno`.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        read(fd, buffer.baseAddress, buffer.count)
    }
}

/// `connect(2)` under a name that does not clash with ``Socket/connect(to:)``.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

/// `close(2)` under a name that does not clash with ``Socket/closeDescriptor(_:)``.
private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
