import BothamNetworking
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves host names with `getaddrinfo` on a dispatch queue, never on the event loop (it blocks).
enum NameResolver {
    private static let queue = DispatchQueue(label: "BothamNetworkingNative.NameResolver", attributes: .concurrent)

    /// Resolves `host` and `port` to IPv4 and IPv6 stream addresses and calls `completion` on a resolver thread.
    static func resolve(
        host: String,
        port: Int,
        completion: @escaping @Sendable (Result<[SocketAddress], NativeTransportError>) -> Void
    ) {
        queue.async { completion(resolveNow(host: host, port: port)) }
    }

    /// The blocking lookup.
    static func resolveNow(host: String, port: Int) -> Result<[SocketAddress], NativeTransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(NativeTransportError(code: .nameResolution, reason: "cannot resolve \(host): \(reason)"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr,
                entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6,
                Int(entry.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
            {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(
                        from: UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(SocketAddress(storage: storage, length: entry.pointee.ai_addrlen))
            }
            cursor = entry.pointee.ai_next
        }
        if addresses.isEmpty {
            return .failure(NativeTransportError(code: .nameResolution, reason: "no IPv4 or IPv6 address for \(host)"))
        }
        return .success(addresses)
    }
}
