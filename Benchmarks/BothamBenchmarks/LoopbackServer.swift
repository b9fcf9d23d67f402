// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking
    import Foundation
    import Glibc

    /// A tiny HTTP/1.1 server on 127.0.0.1 with blocking sockets and a thread per connection, for what nginx cannot do:
    /// read and discard a whole upload (``Behaviour/sink``), answer after a delay (``Behaviour/slow(seconds:)``) and
    /// stream timestamped Server-Sent Events (``Behaviour/events(count:interval:)``).
    ///
    /// Why not `MockWebServer`, the package's loopback test server (the tests use it and nothing else): this one
    /// discards an upload as it reads it, where MockWebServer records every body in memory and caps it at
    /// `maxBodyBytes` (16 MiB by default; the memory case uploads 1 GiB), and it stamps each event with the clock
    /// just before its `send`, where MockWebServer's streamed parts are bytes scripted in advance.
    final class LoopbackServer: Sendable {
        enum Behaviour: Sendable {
            /// Reads the whole request body (Content-Length or chunked), discards it and answers 204.
            case sink
            /// Reads the request, waits, then answers 200 with a small JSON body.
            case slow(seconds: Double)
            /// Answers 200 `text/event-stream`, chunked, and writes `count` events `data: {"i":N,"t":T}` one every
            /// `interval` seconds (an absolute schedule), each in one chunk and one `send` (`TCP_NODELAY`), where `T` is
            /// ``MonotonicTime/nanoseconds()`` taken just before the `send`: a reader in this process subtracts it from
            /// its own reading of the same clock.
            case events(count: Int, interval: Double)
        }

        let port: UInt16
        private let listener: Int32
        private let behaviour: Behaviour
        /// Body bytes received by ``Behaviour/sink`` requests, per completed request, in order.
        private let bodies = Lock<[Int]>([])

        var receivedBodySizes: [Int] { bodies.withLock { $0 } }

        init(_ behaviour: Behaviour) throws {
            self.behaviour = behaviour
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw OptionsError("socket() failed") }
            var yes: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(socket, generic, length) == 0 && listen(socket, 128) == 0
                        && getsockname(socket, generic, &length) == 0
                }
            }
            guard bound else {
                close(socket)
                throw OptionsError("cannot listen on 127.0.0.1")
            }
            listener = socket
            port = UInt16(bigEndian: address.sin_port)
        }

        /// Accepts connections on a background thread until the process ends.
        func start() {
            let thread = Thread { [self] in
                while true {
                    let connection = accept(listener, nil, nil)
                    if connection < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    Thread { [self] in serve(connection) }.start()
                }
            }
            thread.start()
        }

        private func serve(_ socket: Int32) {
            defer { close(socket) }
            if case .events = behaviour {
                // Each event leaves at once, never held back waiting for the ACK of the previous one (Nagle).
                var noDelay: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            }
            var reader = SocketReader(socket: socket)
            while let head = reader.readHead() {
                let headers = Self.headers(of: head)
                if headers["expect"]?.lowercased() == "100-continue" {
                    guard Self.write(socket, "HTTP/1.1 100 Continue\r\n\r\n") else { return }
                }
                var bodySize = 0
                if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                    guard let size = reader.discardChunkedBody() else { return }
                    bodySize = size
                } else if let length = headers["content-length"].flatMap({ Int($0) }) {
                    guard reader.discard(length) else { return }
                    bodySize = length
                }
                let answer: String
                switch behaviour {
                case .sink:
                    bodies.withLock { $0.append(bodySize) }
                    answer = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"
                case .events(let count, let interval):
                    guard Self.streamEvents(socket, count: count, interval: interval) else { return }
                    continue
                case .slow(let seconds):
                    usleep(useconds_t(seconds * 1e6))
                    let body = #"{"slow":true}"#
                    answer =
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                        + body
                }
                guard Self.write(socket, answer) else { return }
            }
        }

        /// Writes the head, `count` timestamped events on schedule, and the last chunk; false when the reader left.
        private static func streamEvents(_ socket: Int32, count: Int, interval: Double) -> Bool {
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
            guard Self.write(socket, head) else { return false }
            let start = MonotonicTime.nanoseconds()
            let step = Int64(interval * 1e9)
            for index in 0..<count {
                MonotonicTime.sleep(until: start + Int64(index + 1) * step)
                let stamp = MonotonicTime.nanoseconds()
                let event = "data: {\"i\":\(index),\"t\":\(stamp)}\n\n"
                let chunk = String(event.utf8.count, radix: 16) + "\r\n" + event + "\r\n"
                guard Self.write(socket, chunk) else { return false }
            }
            return Self.write(socket, "0\r\n\r\n")
        }

        private static func headers(of head: String) -> [String: String] {
            var fields = [String: String]()
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return fields
        }

        private static func write(_ socket: Int32, _ text: String) -> Bool {
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Buffered reads from a blocking socket.
    private struct SocketReader {
        let socket: Int32
        private var buffer: [UInt8] = []
        private var start = 0
        private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

        init(socket: Int32) {
            self.socket = socket
        }

        private var available: Int { buffer.count - start }

        /// Reads more bytes into the buffer; false at end of stream or on error.
        private mutating func fill() -> Bool {
            if start > 0, start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }

        /// The request line and headers, up to the blank line (consumed), or nil at end of stream.
        mutating func readHead() -> String? {
            while true {
                if let end = find([13, 10, 13, 10]) {
                    let head = String(decoding: buffer[start..<end], as: UTF8.self)
                    start = end + 4
                    return head
                }
                if available > 64 * 1024 { return nil }
                guard fill() else { return nil }
            }
        }

        mutating func readLine() -> String? {
            while true {
                if let end = find([13, 10]) {
                    let line = String(decoding: buffer[start..<end], as: UTF8.self)
                    start = end + 2
                    return line
                }
                guard fill() else { return nil }
            }
        }

        /// Reads and drops `count` bytes.
        mutating func discard(_ count: Int) -> Bool {
            var remaining = count
            while remaining > 0 {
                if available == 0 {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                    guard fill() else { return false }
                }
                let taken = min(remaining, available)
                start += taken
                remaining -= taken
            }
            return true
        }

        /// Reads and drops a chunked body with its trailer; returns the body size.
        mutating func discardChunkedBody() -> Int? {
            var total = 0
            while true {
                guard let line = readLine() else { return nil }
                let sizeText = line.split(separator: ";").first.map(String.init) ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
                if size == 0 {
                    while let trailer = readLine() {
                        if trailer.isEmpty { return total }
                    }
                    return nil
                }
                guard discard(size), readLine() != nil else { return nil }
                total += size
            }
        }

        private func find(_ pattern: [UInt8]) -> Int? {
            guard available >= pattern.count else { return nil }
            var index = start
            while index + pattern.count <= buffer.count {
                if buffer[index] == pattern[0], Array(buffer[index..<index + pattern.count]) == pattern { return index }
                index += 1
            }
            return nil
        }
    }

#endif
