import BothamNetworking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The address of a Unix domain socket: a path in the file system, which must fit in `sockaddr_un.sun_path` with
/// its terminating NUL (108 bytes on Linux, 104 on Darwin).
enum UnixSocketAddress {
    /// The size of `sockaddr_un.sun_path` on this platform.
    static var pathCapacity: Int {
        MemoryLayout.size(ofValue: sockaddr_un().sun_path)
    }

    /// Why `path` cannot name a socket, or `nil` when it can: it must be non-empty, hold no NUL byte and fit in
    /// ``pathCapacity`` with its terminating NUL.
    static func problem(with path: String) -> String? {
        let length = path.utf8.count
        if length == 0 { return "the Unix socket path is empty" }
        if path.utf8.contains(0) { return "the Unix socket path \(DebugText.quoted(path)) contains a NUL byte" }
        guard length < pathCapacity else {
            return "the Unix socket path \(DebugText.quoted(path)) is \(length) bytes long; at most "
                + "\(pathCapacity - 1) fit in sockaddr_un"
        }
        return nil
    }

    /// The `sockaddr_un` of `path`, or `nil` when ``problem(with:)`` finds one.
    static func socketAddress(path: String) -> SocketAddress? {
        guard problem(with: path) == nil else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { target in
            target.copyBytes(from: bytes)
            target[bytes.count] = 0
        }
        // The family, the path and its NUL: what `connect(2)` reads.
        let length =
            MemoryLayout<sockaddr_un>.offset(of: \.sun_path).map { $0 + bytes.count + 1 }
            ?? MemoryLayout<sockaddr_un>.size
        #if canImport(Darwin)
            address.sun_len = UInt8(length)
        #endif
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: &address) { target.copyMemory(from: $0) }
        }
        return SocketAddress(storage: storage, length: socklen_t(length))
    }
}
