import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Musl)
    import Musl
    private let streamSocket = Int32(SOCK_STREAM)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A loopback TCP port that listens and never accepts: the kernel completes the TCP handshake (the connection waits
/// in the backlog), and nothing ever reads or answers, so a TLS handshake with it never ends. It is what a
/// connection that cannot be set up looks like, for the connect timeout tests. Not a server: nothing is served.
final class UnacceptedListener: Sendable {
    /// The port it listens on.
    let port: Int
    private let descriptor: Int32

    /// Listens on a free loopback port.
    init() throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
