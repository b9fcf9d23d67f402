#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A resolved IPv4 or IPv6 socket address, or a Unix domain socket's (``UnixSocketAddress``).
struct SocketAddress: Sendable {
    /// The raw address, big enough for any family.
    var storage: sockaddr_storage
    /// How many bytes of `storage` are used.
    var length: socklen_t
    /// `AF_INET`, `AF_INET6` or `AF_UNIX`.
    var family: Int32 { Int32(storage.ss_family) }
}
