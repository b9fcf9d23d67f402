#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address and a TCP port: what a ``NameResolving`` resolver answers with, and what
/// ``NativeHTTPClient`` connects to.
///
/// ```swift
/// let address = NetworkAddress(ip: "::1", port: 8080)  // [::1]:8080
/// ```
package struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    package enum Family: Sendable, Hashable {
        /// IPv4 (`AF_INET`).
        case ipv4
        /// IPv6 (`AF_INET6`).
        case ipv6
    }

    /// The address family.
    package let family: Family
    /// The TCP port, `0...65535`.
    package let port: Int
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    private let bytes: [UInt8]
    /// The IPv6 scope (interface) of a link-local address, 0 otherwise.
    private let scopeID: UInt32

    /// An address from its text (`127.0.0.1`, `::1`, `2001:db8::1`; no brackets, no zone) and a port, or `nil` when
    /// `ip` is not an IPv4 or IPv6 literal or `port` is outside `0...65535`.
    package init?(ip: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, ip, &v4) == 1 {
            self.init(family: .ipv4, port: port, bytes: withUnsafeBytes(of: &v4) { Array($0) }, scopeID: 0)
        } else if inet_pton(AF_INET6, ip, &v6) == 1 {
            self.init(family: .ipv6, port: port, bytes: withUnsafeBytes(of: &v6) { Array($0) }, scopeID: 0)
        } else {
            return nil
        }
    }

    private init(family: Family, port: Int, bytes: [UInt8], scopeID: UInt32) {
        self.family = family
        self.port = port
        self.bytes = bytes
        self.scopeID = scopeID
    }

    /// The address of a `sockaddr_in` or `sockaddr_in6` in `storage`, or `nil` for another family.
    init?(_ address: SocketAddress) {
        var storage = address.storage
        switch address.family {
        case AF_INET:
            let v4 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            var ip = v4.sin_addr
            let port = Int(UInt16(bigEndian: v4.sin_port))
            self.init(family: .ipv4, port: port, bytes: withUnsafeBytes(of: &ip) { Array($0) }, scopeID: 0)
        case AF_INET6:
            let v6 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var ip = v6.sin6_addr
            let port = Int(UInt16(bigEndian: v6.sin6_port))
            self.init(
                family: .ipv6, port: port, bytes: withUnsafeBytes(of: &ip) { Array($0) }, scopeID: v6.sin6_scope_id)
        default:
            return nil
        }
    }

    /// The IP address as text (`127.0.0.1`, `::1`), without brackets.
    package var ip: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = self.family == .ipv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:8080` or `[::1]:8080`.
    package var description: String {
        family == .ipv4 ? "\(ip):\(port)" : "[\(ip)]:\(port)"
    }

    /// The `sockaddr` to connect to.
    var socketAddress: SocketAddress {
        var storage = sockaddr_storage()
        let length: Int
        switch family {
        case .ipv4:
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: bytes) }
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: &v4) { target.copyMemory(from: $0) }
            }
            length = MemoryLayout<sockaddr_in>.size
        case .ipv6:
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
            v6.sin6_scope_id = scopeID
            withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: bytes) }
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: &v6) { target.copyMemory(from: $0) }
            }
            length = MemoryLayout<sockaddr_in6>.size
        }
        #if canImport(Darwin)
            withUnsafeMutableBytes(of: &storage) { $0[0] = UInt8(length) }
        #endif
        return SocketAddress(storage: storage, length: socklen_t(length))
    }
}
