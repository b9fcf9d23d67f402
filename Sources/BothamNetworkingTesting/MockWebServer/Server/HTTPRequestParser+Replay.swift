import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the server's request parser over bytes instead of a live connection, for the fuzz target
/// (`Fuzz/FuzzRequestParser`) and the reliability tests. Package-level: not part of the public API.
///
/// The bytes go through a local socket pair into the same `ConnectionIO` and `HTTPRequestParser` a real connection
/// uses, and requests are read the way `ConnectionHandler` reads them (minus the responses).
package enum HTTPRequestParserReplay {
    /// What the parser made of one request.
    package enum Outcome: Sendable {
        /// A complete request.
        case request(RecordedRequest)
        /// The request was refused with this status (the server would answer it and close).
        case rejected(status: Int, message: String)
        /// The bytes ended in the middle of a request (the server would close without answering).
        case connectionEnded
    }

    /// The most bytes ``parse(_:maxHeaderBytes:maxBodyBytes:maxRequests:)`` reads; longer inputs are cut, so the
    /// whole input always fits in the socket pair's buffer.
    package static let maxInputBytes = 64 * 1024

    /// Parses up to `maxRequests` requests from `bytes`, as one connection carrying them would be parsed.
    ///
    /// - Throws: ``MockWebServerError/systemCallFailed(operation:errno:)`` when the socket pair cannot be made.
    package static func parse(
        _ bytes: [UInt8],
        maxHeaderBytes: Int = 64 * 1024,
        maxBodyBytes: Int = 1024 * 1024,
        maxRequests: Int = 16
    ) throws(MockWebServerError) -> [Outcome] {
        let registry = DescriptorRegistry()
        let wake = try WakeSignal.make(registry: registry)
        defer {
            registry.close(wake.readEnd)
            registry.close(wake.writeEnd)
        }
        let reader = try connectedReader(holding: Array(bytes.prefix(maxInputBytes)), registry: registry)
        defer { registry.close(reader) }
        var io = ConnectionIO(descriptor: reader, wake: wake)
        let parser = HTTPRequestParser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        var outcomes: [Outcome] = []
        for sequenceNumber in 0..<max(0, maxRequests) {
            guard let outcome = readRequest(from: &io, parser: parser, sequenceNumber: sequenceNumber) else { break }
            outcomes.append(outcome)
            guard case .request = outcome else { break }
        }
        return outcomes
    }

    /// One request, or `nil` when the bytes end cleanly between requests.
    private static func readRequest(
        from io: inout ConnectionIO,
        parser: HTTPRequestParser,
        sequenceNumber: Int
    ) -> Outcome? {
        do throws(HTTPRequestReadError) {
            guard let head = try parser.readHead(from: &io) else { return nil }
            let framing: RequestBodyFraming
            do {
                framing = try parser.bodyFraming(of: head)
            } catch {
                throw .rejected(error)
            }
            if head.minorVersion >= 1, head.headers.contains("Expect"), !head.expectsContinue {
                throw .rejected(HTTPRequestRejection(status: 417, message: "Unsupported Expect"))
            }
            let body = try parser.readBody(framing, from: &io)
            return .request(RecordedRequest(head: head, body: body, sequenceNumber: sequenceNumber, connectionIndex: 0))
        } catch .rejected(let rejection) {
            return .rejected(status: rejection.status, message: rejection.message)
        } catch {
            return .connectionEnded
        }
    }

    /// The reading end of a socket pair whose other end sent `bytes` and closed.
    private static func connectedReader(
        holding bytes: [UInt8],
        registry: DescriptorRegistry
    ) throws(MockWebServerError) -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, SystemCalls.streamSocketType, 0, &ends) == 0 else {
            throw .systemCallFailed(operation: "socketpair", errno: SystemCalls.lastError)
        }
        registry.register(ends[0])
        registry.register(ends[1])
        defer { registry.close(ends[1]) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                SystemCalls.send(ends[1], UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            guard sent > 0 else {
                if sent < 0, SystemCalls.lastError == EINTR { continue }
                let code = SystemCalls.lastError
                registry.close(ends[0])
                throw .systemCallFailed(operation: "send", errno: code)
            }
            offset += sent
        }
        guard SystemCalls.makeNonBlocking(ends[0]) else {
            let code = SystemCalls.lastError
            registry.close(ends[0])
            throw .systemCallFailed(operation: "fcntl", errno: code)
        }
        return ends[0]
    }
}
