import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether this machine has an IPv6 loopback, found without MockWebServer (whose IPv6 support is what the tests
/// check): a TCP socket of our own must bind to `::1`.
enum IPv6Loopback {
    /// Whether a TCP socket binds to `::1`.
    static let isAvailable: Bool = {
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let probe = socket(AF_INET6, streamType, 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        return result == 0
    }()

    /// Whether `BOTHAM_REQUIRE_IPV6=1` is set: then a machine without `::1` fails the IPv6 tests instead of
    /// skipping them, so CI on a machine that has it cannot lose them silently.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["BOTHAM_REQUIRE_IPV6"] == "1"
    }

    /// Why the IPv6 tests are skipped when they are.
    static let skipReason: Comment =
        "this machine has no IPv6 loopback (no socket binds to ::1); set BOTHAM_REQUIRE_IPV6=1 to fail instead"
}

/// A failure of the raw test client.
struct RawClientError: Error, CustomStringConvertible {
    var description: String
}

/// A test-only HTTP client on a plain TCP socket, for what URLSession cannot express: malformed input, pipelining,
/// chunked uploads, `Expect: 100-continue`, and observing faults byte by byte. Every read has a deadline.
// `@unchecked Sendable`: a test uses its connection from one task at a time, awaiting each read before the next,
// so the buffer is never touched by two threads at once; reads run on a thread of their own only to keep blocking
// `poll` calls off Swift's small cooperative pool (2 threads here), which other suites share.
final class RawHTTPConnection: @unchecked Sendable {
    /// How a read ended.
    enum End: Equatable {
        case endOfStream
        case reset
        case timedOut
        case failed(Int32)
    }

    /// A response read off the wire.
    struct Response {
        var statusLine: String
        var statusCode: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`.
    init(port: Int, host: String = "127.0.0.1") throws {
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        let isIPv6 = inet_pton(AF_INET, host, &ipv4.sin_addr) != 1
        if isIPv6, inet_pton(AF_INET6, host, &ipv6.sin6_addr) != 1 {
            throw RawClientError(description: "bad host \(host)")
        }
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw RawClientError(description: "socket failed: \(errno)") }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let result: Int32
        if isIPv6 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = UInt16(port).bigEndian
            result = withUnsafePointer(to: &ipv6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = UInt16(port).bigEndian
            result = withUnsafePointer(to: &ipv4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw RawClientError(description: "connect failed: \(code)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as UTF-8.
    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Sends every byte of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset, flags)
            }
            guard sent > 0 else { throw RawClientError(description: "send failed: \(errno)") }
            offset += sent
        }
    }

    /// Half-closes the connection: the server sees end of stream after the bytes already sent.
    func finishWriting() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Receives once into the buffer, waiting until `deadline`. Returns `nil` when bytes arrived.
    private func receive(until deadline: ContinuousClock.Instant) -> End? {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 1, milliseconds)
            if ready == 0 { continue }
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return nil
            }
            if count == 0 { return .endOfStream }
            if errno == EINTR || errno == EAGAIN { continue }
            return errno == ECONNRESET ? .reset : .failed(errno)
        }
    }

    /// Reads everything until the server closes the connection or `timeout` passes.
    func blockingReadUntilClosed(timeout: Duration = .seconds(5)) -> (bytes: [UInt8], end: End) {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = receive(until: deadline) {
                defer { buffer.removeAll() }
                return (buffer, end)
            }
        }
    }

    /// Reads exactly `count` bytes.
    func blockingReadBytes(_ count: Int, timeout: Duration = .seconds(5)) throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while buffer.count < count {
            if let end = receive(until: deadline) {
                throw RawClientError(description: "connection ended (\(end)) after \(buffer.count) of \(count) bytes")
            }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Reads one line ending in CRLF, without the CRLF.
    func blockingReadLine(timeout: Duration = .seconds(5)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[0..<index].dropLast(buffer[..<index].last == UInt8(ascii: "\r") ? 1 : 0)
                buffer.removeFirst(index + 1)
                return String(decoding: line, as: UTF8.self)
            }
            if let end = receive(until: deadline) {
                throw RawClientError(description: "connection ended (\(end)) in the middle of a line")
            }
        }
    }

    /// Reads the status line and headers of one response.
    func blockingReadHead(timeout: Duration = .seconds(5)) throws -> Response {
        let statusLine = try blockingReadLine(timeout: timeout)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]) else {
            throw RawClientError(description: "bad status line \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try blockingReadLine(timeout: timeout)
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw RawClientError(description: "bad header \(line)") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            )
        }
        return Response(statusLine: statusLine, statusCode: code, headers: headers, body: [])
    }

    /// Reads one complete response; `hasBody: false` for responses to HEAD.
    func blockingReadResponse(hasBody: Bool = true, timeout: Duration = .seconds(5)) throws -> Response {
        var response = try blockingReadHead(timeout: timeout)
        let code = response.statusCode
        guard hasBody, !(100..<200).contains(code), code != 204, code != 304 else { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try blockingReadLine(timeout: timeout)
                let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
                guard let size = Int(sizeText, radix: 16) else {
                    throw RawClientError(description: "bad chunk size \(sizeLine)")
                }
                if size == 0 {
                    while try !blockingReadLine(timeout: timeout).isEmpty {}
                    return response
                }
                response.body += try blockingReadBytes(size, timeout: timeout)
                _ = try blockingReadLine(timeout: timeout)
            }
        }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try blockingReadBytes(length, timeout: timeout)
            return response
        }
        response.body = blockingReadUntilClosed(timeout: timeout).bytes
        return response
    }

    /// Reads one chunk of a chunked body: its payload, or `[]` for the last (zero-length) chunk, whose trailer
    /// section is read too.
    func blockingReadChunk(timeout: Duration = .seconds(5)) throws -> [UInt8] {
        let sizeLine = try blockingReadLine(timeout: timeout)
        let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(sizeText, radix: 16) else {
            throw RawClientError(description: "bad chunk size \(sizeLine)")
        }
        if size == 0 {
            while try !blockingReadLine(timeout: timeout).isEmpty {}
            return []
        }
        let payload = try blockingReadBytes(size, timeout: timeout)
        let end = try blockingReadLine(timeout: timeout)
        guard end.isEmpty else { throw RawClientError(description: "chunk not followed by CRLF: \(end)") }
        return payload
    }

    /// Whether the server has closed the connection (no byte and end of stream within `timeout`).
    func blockingIsClosedByServer(timeout: Duration = .seconds(5)) -> Bool {
        let (bytes, end) = blockingReadUntilClosed(timeout: timeout)
        return bytes.isEmpty && (end == .endOfStream || end == .reset)
    }

    /// Runs a blocking read on a thread of its own and waits for it without blocking the cooperative pool.
    private func offThePool<T: Sendable>(_ read: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try read() }) }.start()
        }
    }

    /// Reads everything until the server closes the connection or `timeout` passes.
    func readUntilClosed(timeout: Duration = .seconds(5)) async -> (bytes: [UInt8], end: End) {
        let result = try? await offThePool { self.blockingReadUntilClosed(timeout: timeout) }
        return result ?? ([], .endOfStream)
    }

    /// Reads exactly `count` bytes.
    func readBytes(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        try await offThePool { try self.blockingReadBytes(count, timeout: timeout) }
    }

    /// Reads the status line and headers of one response.
    func readHead(timeout: Duration = .seconds(5)) async throws -> Response {
        try await offThePool { try self.blockingReadHead(timeout: timeout) }
    }

    /// Reads one complete response; `hasBody: false` for responses to HEAD.
    func readResponse(hasBody: Bool = true, timeout: Duration = .seconds(5)) async throws -> Response {
        try await offThePool { try self.blockingReadResponse(hasBody: hasBody, timeout: timeout) }
    }

    /// Reads one chunk of a chunked body: its payload, or `[]` for the last (zero-length) chunk.
    func readChunk(timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        try await offThePool { try self.blockingReadChunk(timeout: timeout) }
    }

    /// Whether the server has closed the connection (no byte and end of stream within `timeout`).
    func isClosedByServer(timeout: Duration = .seconds(5)) async -> Bool {
        (try? await offThePool { self.blockingIsClosedByServer(timeout: timeout) }) ?? false
    }
}
