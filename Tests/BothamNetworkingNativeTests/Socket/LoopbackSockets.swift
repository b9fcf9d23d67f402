import BothamNetworkingNative
import BothamTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Test-only sockets on the loopback addresses (`127.0.0.1`, `::1`) for the Happy Eyeballs tests: nothing here
/// ever sends a packet anywhere else.
enum Loopback {
    /// The loopback address of `family`, port 0.
    static func ip(_ family: NetworkAddress.Family) -> String {
        family == .ipv4 ? "127.0.0.1" : "::1"
    }

    /// Whether a TCP socket binds to `::1` on this machine.
    static let hasIPv6 = (try? BoundSocket(.ipv6)) != nil

    /// Whether `BOTHAM_REQUIRE_IPV6=1` is set: then the IPv6 tests fail on a machine without `::1` rather than skip.
    static var requiresIPv6: Bool {
        ProcessInfo.processInfo.environment["BOTHAM_REQUIRE_IPV6"] == "1"
    }

    /// Why the dual-stack tests are skipped when they are.
    static let skipReason: Comment =
        "this machine has no IPv6 loopback (no socket binds to ::1); set BOTHAM_REQUIRE_IPV6=1 to fail instead"

    /// How many of this machine's TCP sockets are still in `SYN_SENT` towards `port` on a loopback address, read
    /// from `/proc/net/tcp` and `/proc/net/tcp6`; `nil` where there is no such file (not Linux).
    static func connectsInProgress(toPort port: Int) -> Int? {
        sockets(toPort: port, inState: "02")
    }

    /// How many of this machine's TCP sockets are connected (`ESTABLISHED`) to `port` on a loopback address, the
    /// server's side excluded; `nil` where there is no `/proc/net/tcp` (not Linux).
    static func connectionsOpen(toPort port: Int) -> Int? {
        sockets(toPort: port, inState: "01")
    }

    /// The sockets whose remote port is `port` in `state` (the kernel's hex code: 01 ESTABLISHED, 02 SYN_SENT).
    private static func sockets(toPort port: Int, inState state: Substring) -> Int? {
        var count = 0
        var found = false
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read whole: String(contentsOfFile:) stops after the first page of the table.
            guard let table = ProcFile.read(file) else { continue }
            found = true
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st ...: the remote "ADDRESS:PORT" in hex, then the state.
                guard fields.count > 3, let remotePort = fields[2].split(separator: ":").last,
                    Int(remotePort, radix: 16) == port, fields[3] == state
                else { continue }
                count += 1
            }
        }
        return found ? count : nil
    }

    /// `work`'s value, computed on a dispatch thread: for blocking socket calls, which must not hold one of Swift's
    /// few cooperative threads (two on this machine kind).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A resolver that answers from a table (every name in it, any port) and counts its calls.
final class TableResolver: NameResolving {
    let table: [String: [NetworkAddress]]
    let calls = Counter()

    init(_ table: [String: [NetworkAddress]]) {
        self.table = table
    }

    func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        calls.increment()
        guard let addresses = table[host] else { throw LoopbackSocketError(description: "\(host) is not in the table") }
        return addresses
    }
}

/// A failure of a test socket call.
struct LoopbackSocketError: Error, CustomStringConvertible {
    var description: String
}

/// A TCP socket bound to a loopback address on a port of the kernel's choice, closed on release. `Sendable`: its
/// properties are constants, and the descriptor is only closed by `deinit`.
final class BoundSocket: Sendable {
    let fd: Int32
    let address: NetworkAddress

    init(_ family: NetworkAddress.Family) throws {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let fd = socket(family == .ipv4 ? AF_INET : AF_INET6, type, 0)
        guard fd >= 0 else { throw LoopbackSocketError(description: "socket: \(String(cString: strerror(errno)))") }
        self.fd = fd
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == .ipv4 {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_addr.s_addr = inet_addr("127.0.0.1")
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v4) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_addr = in6addr_loopback
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v6) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LoopbackSocketError(description: "bind to \(Loopback.ip(family)): \(reason)")
        }
        let port: UInt16 = withUnsafeBytes(of: &storage) { raw in
            family == .ipv4
                ? UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
        }
        guard let address = NetworkAddress(ip: Loopback.ip(family), port: Int(port)) else {
            close(fd)
            throw LoopbackSocketError(description: "no address for port \(port)")
        }
        self.address = address
    }

    deinit {
        close(fd)
    }

    /// Starts listening with `backlog`.
    func listen(backlog: Int32) throws {
        guard systemListen(fd, backlog) == 0 else {
            throw LoopbackSocketError(description: "listen: \(String(cString: strerror(errno)))")
        }
    }

    /// How many connections are waiting to be accepted; takes (and closes) them. The socket must be listening.
    func takeQueuedConnections() -> Int {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var count = 0
        while true {
            let accepted = accept(fd, nil, nil)
            guard accepted >= 0 else { return count }
            close(accepted)
            count += 1
        }
    }
}

extension BoundSocket {
    /// Waits up to `millis` for a connection on any of `listeners`, answers the first one with a `200` whose body is
    /// `body` once its request head has arrived, and returns the index of the listener it came to (`nil` when none
    /// came or its request did not). Blocks its thread: call it through ``Loopback/blocking(_:)``.
    static func answerFirstConnection(among listeners: [BoundSocket], body: String, millis: Int32) -> Int? {
        var pollers = listeners.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&pollers, nfds_t(pollers.count), millis) > 0,
            let index = pollers.firstIndex(where: { $0.revents & Int16(POLLIN) != 0 })
        else { return nil }
        let connection = accept(listeners[index].fd, nil, nil)
        guard connection >= 0 else { return nil }
        defer { close(connection) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            var reader = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&reader, 1, millis) == 1 else { return nil }
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return nil }
            head += buffer[0..<count]
        }
        let response = Array(
            "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
        guard write(connection, response, response.count) == response.count else { return nil }
        return index
    }
}

/// `listen(2)` under a name that does not clash with ``BoundSocket/listen(backlog:)``.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

/// A loopback port that never completes a TCP handshake: a listener with a backlog of 0 whose one accept-queue
/// slot is taken by a connection nobody accepts, so the kernel (Linux) drops every further SYN and a connect to it
/// hangs, its SYN retransmitted, until the client gives up. Nothing leaves the machine.
///
/// ``init(_:)`` checks that it really hangs (a connect must not complete within 300 ms) and throws otherwise, so a
/// kernel that behaves differently fails the tests loudly instead of passing them for the wrong reason. That check
/// blocks its thread: async tests use ``make(_:)``, which runs it on a dispatch thread, never on Swift's cooperative
/// pool (two threads on a two-core machine, which every test of the process shares).
final class LoopbackBlackhole: Sendable {
    private let listener: BoundSocket
    private let filler: Int32
    /// Where a connect never completes.
    var address: NetworkAddress { listener.address }

    init(_ family: NetworkAddress.Family) throws {
        listener = try BoundSocket(family)
        try listener.listen(backlog: 0)
        filler = try Self.startConnect(to: listener.address)
        // Every property is set from here on, so a throw runs `deinit`, which closes the filler (once).
        guard Self.wait(filler, millis: 2000) else {
            throw LoopbackSocketError(description: "the filler connection to \(listener.address) did not connect")
        }
        let probe = try Self.startConnect(to: listener.address)
        defer { close(probe) }
        if Self.wait(probe, millis: 300) {
            throw LoopbackSocketError(description: "\(listener.address) is no blackhole: a second connect completed")
        }
    }

    /// The listening socket behind the blackhole.
    var listeningSocket: BoundSocket { listener }

    /// Ends the blackhole: the filler's connection is taken off the accept queue, so the next SYN that arrives (the
    /// retransmission of a connect in progress, a second after the first) completes its handshake.
    func open() {
        _ = listener.takeQueuedConnections()
    }

    /// A blackhole made on a dispatch thread (its check blocks for 300 ms).
    static func make(_ family: NetworkAddress.Family) async throws -> LoopbackBlackhole {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try LoopbackBlackhole(family) }) }
        }
    }

    deinit {
        close(filler)
    }

    /// A non-blocking socket connecting to `address`.
    private static func startConnect(to address: NetworkAddress) throws -> Int32 {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let fd = socket(address.family == .ipv4 ? AF_INET : AF_INET6, type, 0)
        guard fd >= 0 else { throw LoopbackSocketError(description: "socket: \(String(cString: strerror(errno)))") }
        #if !canImport(Glibc)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #endif
        var storage = sockaddr_storage()
        var length: socklen_t
        if address.family == .ipv4 {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(address.port).bigEndian
            v4.sin_addr.s_addr = inet_addr("127.0.0.1")
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v4) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(address.port).bigEndian
            v6.sin6_addr = in6addr_loopback
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v6) { target.copyMemory(from: $0) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard result == 0 || errno == EINPROGRESS else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LoopbackSocketError(description: "connect to \(address): \(reason)")
        }
        return fd
    }

    /// Whether `fd`'s connect completes (successfully) within `millis`.
    private static func wait(_ fd: Int32, millis: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, millis) == 1 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }
}
