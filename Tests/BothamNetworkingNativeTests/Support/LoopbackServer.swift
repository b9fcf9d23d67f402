import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request as the loopback server read it.
struct ReceivedRequest: Sendable {
    var method: String
    var target: String
    var headers: [String: String]
    var body: Data
    /// Which accepted connection carried it (0, 1, 2, …).
    var connection: Int

    /// A header value by lower-cased name.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What the loopback server does with a request.
enum Reply: Sendable {
    /// A response with `Content-Length` added (unless a `Transfer-Encoding` is given).
    case response(status: Int, headers: [(String, String)] = [], body: Data = Data())
    /// These bytes as they are, then close when `close` is set.
    case raw(Data, close: Bool)
    /// Never answer; wait for the client to go away.
    case hang
    /// Close the connection without answering.
    case close
}

/// A tiny blocking HTTP/1.1 server on 127.0.0.1 for tests: a thread per connection, keep-alive, scripted replies.
/// Stop it with ``stop()``.
final class LoopbackServer: Sendable {
    private struct State {
        var requests: [ReceivedRequest] = []
        var connections = 0
        var clientSockets: [Int32] = []
        var stopped = false
    }

    let port: Int
    private let listener: Int32
    private let state = Lock(State())
    private let handler: @Sendable (ReceivedRequest) -> Reply

    /// Starts listening on a free port.
    init(handler: @escaping @Sendable (ReceivedRequest) -> Reply) throws {
        self.handler = handler
        let fd = TestSocket.makeTCP()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The server's base URL.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Requests received so far.
    var requests: [ReceivedRequest] { state.withLock { $0.requests } }

    /// Connections accepted so far.
    var connectionCount: Int { state.withLock { $0.connections } }

    /// Stops accepting and closes every connection.
    func stop() {
        state.withLock { state in
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in state.clientSockets { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let index = state.withLock { state -> Int? in
                if state.stopped { return nil }
                state.connections += 1
                state.clientSockets.append(client)
                return state.connections - 1
            }
            guard let index else {
                close(client)
                break
            }
            let thread = Thread { [self] in serve(client, index: index) }
            thread.start()
        }
        state.withLock { _ in _ = close(listener) }
    }

    private func serve(_ fd: Int32, index: Int) {
        var buffer = Data()
        defer {
            // Closed under the lock so that stop() never shuts down a descriptor number the OS has reused.
            state.withLock { state in
                state.clientSockets.removeAll { $0 == fd }
                close(fd)
            }
        }
        while let request = readRequest(fd, buffer: &buffer, connection: index) {
            state.withLock { $0.requests.append(request) }
            switch handler(request) {
            case .response(let status, let headers, let body):
                var head = "HTTP/1.1 \(status) Status\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                if !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" || $0.0 == "X-No-Length" }) {
                    head += "Content-Length: \(body.count)\r\n"
                }
                head += "\r\n"
                var bytes = Data(head.utf8)
                if request.method != "HEAD" { bytes.append(body) }
                guard writeAll(fd, bytes) else { return }
                if headers.contains(where: { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }) {
                    return
                }
            case .raw(let bytes, let closeAfter):
                guard writeAll(fd, bytes), !closeAfter else { return }
            case .hang:
                var scratch = [UInt8](repeating: 0, count: 1024)
                while read(fd, &scratch, scratch.count) > 0 {}
                return
            case .close:
                return
            }
        }
    }

    private func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, TestSocket.sendFlags)
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    private func readRequest(_ fd: Int32, buffer: inout Data, connection: Int) -> ReceivedRequest? {
        let separator = Data("\r\n\r\n".utf8)
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while buffer.range(of: separator) == nil {
            let count = read(fd, &scratch, scratch.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: scratch[0..<count])
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let headText = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length {
            let count = read(fd, &scratch, scratch.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: scratch[0..<count])
        }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return ReceivedRequest(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            headers: headers,
            body: body,
            connection: connection
        )
    }
}
