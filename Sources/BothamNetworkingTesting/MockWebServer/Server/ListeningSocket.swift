#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bound, listening, non-blocking TCP socket on a loopback (or other literal) address.
struct ListeningSocket: Sendable {
    let descriptor: Int32
    let port: Int
    let isIPv6: Bool

    /// Binds `host` (an IPv4 or IPv6 literal, or `localhost`) on `port` (0 picks a free one) and listens.
    static func open(
        host: String,
        port: Int,
        backlog: Int32,
        registry: DescriptorRegistry
    ) throws(MockWebServerError) -> ListeningSocket {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        let isIPv6: Bool
        if inet_pton(AF_INET, literal, &ipv4.sin_addr) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, literal, &ipv6.sin6_addr) == 1 {
            isIPv6 = true
        } else {
            throw .invalidHost(host)
        }

        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, SystemCalls.streamSocketType, 0)
        guard descriptor >= 0 else { throw .systemCallFailed(operation: "socket", errno: SystemCalls.lastError) }
        registry.register(descriptor)

        func fail(_ operation: String) -> MockWebServerError {
            let code = SystemCalls.lastError
            registry.close(descriptor)
            return .systemCallFailed(operation: operation, errno: code)
        }

        guard SystemCalls.makeNonBlocking(descriptor) else { throw fail("fcntl") }
        SystemCalls.setOption(descriptor, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)

        let bound: Int32
        if isIPv6 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = UInt16(port).bigEndian
            #if canImport(Darwin)
                ipv6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            bound = withUnsafePointer(to: &ipv6) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(descriptor, address, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = UInt16(port).bigEndian
            #if canImport(Darwin)
                ipv4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            bound = withUnsafePointer(to: &ipv4) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(descriptor, address, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard bound == 0 else { throw fail("bind") }
        guard listen(descriptor, backlog) == 0 else { throw fail("listen") }

        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getsockname(descriptor, address, &length)
            }
        }
        guard named == 0 else { throw fail("getsockname") }
        let boundPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
            if isIPv6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        return ListeningSocket(descriptor: descriptor, port: Int(boundPort), isIPv6: isIPv6)
    }

    /// Accepts one pending connection. Returns `nil` when none is pending (or the peer already gave up).
    func acceptConnection(registry: DescriptorRegistry) -> Int32? {
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 {
                registry.register(connection)
                guard SystemCalls.makeNonBlocking(connection) else {
                    registry.close(connection)
                    return nil
                }
                SystemCalls.configureConnection(connection)
                return connection
            }
            if SystemCalls.lastError == EINTR || SystemCalls.lastError == ECONNABORTED { continue }
            return nil
        }
    }
}
