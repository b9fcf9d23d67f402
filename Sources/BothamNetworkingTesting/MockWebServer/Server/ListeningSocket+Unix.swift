#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ListeningSocket {
    /// Creates the Unix domain socket file `path`, binds it and listens (non-blocking). Its port is 0.
    ///
    /// - Throws: `systemCallFailed("bind", ENAMETOOLONG)` when `path` (with its NUL) does not fit in `sun_path`, and
    ///   `systemCallFailed("bind", EADDRINUSE)` when a file is there already (it is never removed).
    static func openUnix(path: String, backlog: Int32, registry: DescriptorRegistry) throws(MockWebServerError)
        -> ListeningSocket
    {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, !bytes.contains(0), bytes.count < capacity else {
            throw .systemCallFailed(operation: "bind", errno: ENAMETOOLONG)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { target in
            target.copyBytes(from: bytes)
            target[bytes.count] = 0
        }
        #if canImport(Darwin)
            address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif

        let descriptor = socket(AF_UNIX, SystemCalls.streamSocketType, 0)
        guard descriptor >= 0 else { throw .systemCallFailed(operation: "socket", errno: SystemCalls.lastError) }
        registry.register(descriptor)

        func fail(_ operation: String) -> MockWebServerError {
            let code = SystemCalls.lastError
            registry.close(descriptor)
            return .systemCallFailed(operation: operation, errno: code)
        }

        guard SystemCalls.makeNonBlocking(descriptor) else { throw fail("fcntl") }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw fail("bind") }
        guard listen(descriptor, backlog) == 0 else {
            let error = fail("listen")
            unlink(path)
            throw error
        }
        return ListeningSocket(descriptor: descriptor, port: 0, isIPv6: false)
    }
}
