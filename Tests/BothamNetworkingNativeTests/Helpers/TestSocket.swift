#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket constants the test servers use, spelled once for every platform: on Glibc `SOCK_STREAM` is an enum
/// and `MSG_NOSIGNAL` a flag; on Darwin `SOCK_STREAM` is an `Int32`, there is no `SOCK_CLOEXEC` or `MSG_NOSIGNAL`
/// (`SO_NOSIGPIPE` per socket instead).
enum TestSocket {
    #if canImport(Glibc)
        /// `SOCK_STREAM`, close-on-exec where the platform can say so at creation.
        static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        /// Flags for `send` that keep a closed peer from raising `SIGPIPE`.
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let streamType = SOCK_STREAM
        static let sendFlags: Int32 = 0
    #endif

    /// A new TCP socket; on Darwin with `SO_NOSIGPIPE`, since `send` has no `MSG_NOSIGNAL` there.
    static func makeTCP() -> Int32 {
        let fd = socket(AF_INET, streamType, 0)
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// A TCP socket connected to `127.0.0.1:port` by a blocking connect, whose sends and receives give up after
    /// `timeout` instead of blocking for ever (`SO_SNDTIMEO`, `SO_RCVTIMEO`); `nil` when the connect fails.
    static func connectLoopback(port: Int, timeout: Duration = .seconds(10)) -> Int32? {
        let fd = makeTCP()
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            _ = setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(clamping: port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }
}
