#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the POSIX calls the server needs, so the rest of the code never deals with platform
/// differences (`SOCK_STREAM` is an enum on Glibc, `MSG_NOSIGNAL` does not exist on Darwin, and so on).
enum SystemCalls {
    /// The current `errno`.
    static var lastError: Int32 { errno }

    #if canImport(Glibc)
        static let streamSocketType = Int32(SOCK_STREAM.rawValue)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #elseif canImport(Musl)
        static let streamSocketType = Int32(SOCK_STREAM)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let streamSocketType = SOCK_STREAM
        static let sendFlags: Int32 = 0
    #endif

    /// Marks `descriptor` non-blocking and close-on-exec.
    static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        return fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0
    }

    /// Sets an integer socket option, ignoring failures (every option set this way is an optimisation).
    static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Applies the options every accepted connection gets: no Nagle delay (so throttling and small writes are
    /// seen by the client at once) and, on Apple platforms, no `SIGPIPE` (Linux uses `MSG_NOSIGNAL` per send).
    static func configureConnection(_ descriptor: Int32) {
        setOption(descriptor, level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY), value: 1)
        #if canImport(Darwin)
            setOption(descriptor, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
    }

    /// Makes the next `close` of `descriptor` send a TCP reset (RST) instead of a normal FIN.
    static func enableResetOnClose(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Half-closes the sending side of `descriptor` (the peer sees end of stream).
    static func shutdownWrites(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Shuts both directions of `descriptor` down: the peer sees the end of the stream (FIN) and a thread
    /// waiting to read it wakes to the end of the stream too.
    static func shutdownBoth(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Shuts the reading side of `descriptor` down, sending nothing: a thread waiting to read it wakes to the end
    /// of the stream, and the closing (with ``enableResetOnClose(_:)`` first, a reset) is left to it.
    static func shutdownReads(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RD))
    }

    /// Closes `descriptor`, ignoring errors (POSIX leaves the descriptor closed even when `close` fails).
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// One non-blocking `recv` into `buffer`; returns the byte count, 0 at end of stream, or -1 with `errno` set.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(descriptor, buffer.baseAddress, buffer.count, 0)
    }

    /// One non-blocking `send` without `SIGPIPE`; returns the byte count or -1 with `errno` set.
    static func send(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        Self.rawSend(descriptor, buffer.baseAddress, buffer.count, sendFlags)
    }

    private static func rawSend(
        _ descriptor: Int32,
        _ pointer: UnsafeRawPointer?,
        _ count: Int,
        _ flags: Int32
    ) -> Int {
        #if canImport(Glibc)
            Glibc.send(descriptor, pointer, count, flags)
        #elseif canImport(Musl)
            Musl.send(descriptor, pointer, count, flags)
        #else
            Darwin.send(descriptor, pointer, count, flags)
        #endif
    }

    /// Whether `code` means "try again later" on a non-blocking descriptor.
    static func wouldBlock(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK
    }

    /// The device and inode behind `descriptor`, used to prove in tests that no descriptor outlives the server.
    static func identity(of descriptor: Int32) -> DescriptorIdentity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return DescriptorIdentity(
            device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino)
        )
    }
}
