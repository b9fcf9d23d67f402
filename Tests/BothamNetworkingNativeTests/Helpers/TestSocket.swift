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
}
