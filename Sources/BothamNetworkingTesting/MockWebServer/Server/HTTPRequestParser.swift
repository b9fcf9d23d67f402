import BothamNetworking
import Foundation

/// Reads HTTP/1.1 requests (RFC 9112) from a connection: the request line, the header section, and the body
/// delimited by `Content-Length` or chunked transfer coding.
///
/// Every size from the wire is parsed with overflow checks and compared against the configured limits;
/// invalid input becomes an ``HTTPRequestRejection`` (a 4xx answer), never a trap. Methods, field names and field
/// values are checked with the core's rules (`HTTPMethod.isValidToken`, `HTTPFieldName.isValid`, `HTTPToken`), the
/// same ones the client applies before sending.
struct HTTPRequestParser {
    /// The most bytes the request line plus header section (and, separately, a trailer section) may take.
    var maxHeaderBytes: Int
    /// The most body bytes a request may carry.
    var maxBodyBytes: Int

    /// The most empty lines skipped before a request line (RFC 9112 §2.2 asks servers to ignore at least one).
    private static let maxLeadingEmptyLines = 8
    /// The longest chunk-size line accepted, extensions included.
    private static let maxChunkLineBytes = 4096

    /// Reads the request line and headers. Returns `nil` when the connection ends cleanly before a request.
    func readHead(from io: inout ConnectionIO) throws(HTTPRequestReadError) -> HTTPRequestHead? {
        var budget = maxHeaderBytes
        var requestLine: [UInt8] = []
        for _ in 0...Self.maxLeadingEmptyLines {
            guard let line = try readLine(from: &io, budget: &budget) else { return nil }
            requestLine = line
            if !line.isEmpty { break }
        }
        guard !requestLine.isEmpty else { throw .rejected(.badRequest("Missing request line")) }
        var head = try parseRequestLine(requestLine)
        head.headers = try readFields(from: &io, budget: &budget)
        return head
    }

    /// Decides how the body of `head` is delimited, rejecting ambiguous or oversized framing.
    func bodyFraming(of head: HTTPRequestHead) throws(HTTPRequestRejection) -> RequestBodyFraming {
        let transferCodings = head.headers.tokens(for: .transferEncoding)
        let lengthValues = head.headers.values(for: .contentLength)
        if !transferCodings.isEmpty {
            guard lengthValues.isEmpty else {
                throw .badRequest("Both Transfer-Encoding and Content-Length")
            }
            guard transferCodings.last == "chunked", transferCodings.filter({ $0 == "chunked" }).count == 1 else {
                throw .badRequest("Unsupported Transfer-Encoding")
            }
            return .chunked
        }
        guard !lengthValues.isEmpty else { return .none }
        var length: Int?
        for element in lengthValues.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let value = try Self.parseDecimal(element.trimmingHTTPWhitespace())
            guard length == nil || length == value else { throw .badRequest("Conflicting Content-Length") }
            length = value
        }
        guard let length else { return .none }
        guard length <= maxBodyBytes else { throw .bodyTooLarge }
        return length == 0 ? .none : .length(length)
    }

    /// Reads the body delimited by `framing`.
    func readBody(
        _ framing: RequestBodyFraming,
        from io: inout ConnectionIO
    ) throws(HTTPRequestReadError) -> RequestBody {
        switch framing {
        case .none:
            return ([], [:], [])
        case .length(let length):
            do {
                return (try io.readBytes(length), [:], [])
            } catch {
                throw .connectionEnded
            }
        case .chunked:
            return try readChunkedBody(from: &io)
        }
    }

    private func readChunkedBody(
        from io: inout ConnectionIO
    ) throws(HTTPRequestReadError) -> RequestBody {
        var body: [UInt8] = []
        var sizes: [Int] = []
        while true {
            let line = try readChunkLine(
                from: &io, maxLength: Self.maxChunkLineBytes, tooLong: "Chunk size line too long")
            let sizeField =
                line.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
                .first ?? []
            let size: Int
            do {
                size = try Self.parseHexadecimal(String(decoding: sizeField, as: UTF8.self).trimmingHTTPWhitespace())
            } catch {
                throw .rejected(error)
            }
            if size == 0 {
                var budget = maxHeaderBytes
                let trailers = try readFields(from: &io, budget: &budget)
                return (body, trailers, sizes)
            }
            let (total, overflow) = body.count.addingReportingOverflow(size)
            guard !overflow, total <= maxBodyBytes else { throw .rejected(.bodyTooLarge) }
            do {
                body.append(contentsOf: try io.readBytes(size))
            } catch {
                throw .connectionEnded
            }
            let end = try readChunkLine(from: &io, maxLength: 0, tooLong: "Chunk data longer than its size")
            guard end.isEmpty else { throw .rejected(.badRequest("Missing CRLF after chunk")) }
            sizes.append(size)
        }
    }

    /// Reads one line of chunked framing; a line longer than `maxLength` is a bad request.
    private func readChunkLine(
        from io: inout ConnectionIO,
        maxLength: Int,
        tooLong message: String
    ) throws(HTTPRequestReadError) -> [UInt8] {
        do {
            guard let line = try io.readLine(maxLength: maxLength) else { throw ConnectionIOError.endOfStream }
            return line
        } catch ConnectionIOError.lineTooLong {
            throw .rejected(.badRequest(message))
        } catch {
            throw .connectionEnded
        }
    }

    /// Reads one line of the header section, charging it (with its line end) to `budget`.
    private func readLine(from io: inout ConnectionIO, budget: inout Int) throws(HTTPRequestReadError) -> [UInt8]? {
        do {
            guard let line = try io.readLine(maxLength: max(0, budget - 2)) else { return nil }
            budget -= line.count + 2
            return line
        } catch ConnectionIOError.lineTooLong {
            throw .rejected(.headersTooLarge)
        } catch {
            throw .connectionEnded
        }
    }

    /// Reads header (or trailer) fields up to the empty line that ends the section.
    private func readFields(
        from io: inout ConnectionIO,
        budget: inout Int
    ) throws(HTTPRequestReadError) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        while true {
            guard let line = try readLine(from: &io, budget: &budget) else { throw .connectionEnded }
            if line.isEmpty { return HTTPHeaders(fields) }
            do {
                fields.append(try Self.parseField(line))
            } catch {
                throw .rejected(error)
            }
        }
    }

    private func parseRequestLine(_ line: [UInt8]) throws(HTTPRequestReadError) -> HTTPRequestHead {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .rejected(.badRequest("Malformed request line")) }
        let method = HTTPMethod(String(decoding: parts[0], as: UTF8.self))
        let target = parts[1]
        let version = parts[2]
        guard method.isValidToken else { throw .rejected(.badRequest("Malformed method")) }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .rejected(.badRequest("Malformed request target"))
        }
        let versionText = String(decoding: version, as: UTF8.self)
        guard versionText.count == 8, versionText.hasPrefix("HTTP/"),
            let major = versionText.dropFirst(5).first?.wholeNumberValue,
            versionText.dropFirst(6).first == ".",
            let minor = versionText.dropFirst(7).first?.wholeNumberValue
        else { throw .rejected(.badRequest("Malformed HTTP version")) }
        guard major == 1 else {
            throw .rejected(HTTPRequestRejection(status: 505, message: "Only HTTP/1.x is supported"))
        }
        return HTTPRequestHead(
            method: method,
            target: String(decoding: target, as: UTF8.self),
            minorVersion: min(minor, 1),
            headers: [:]
        )
    }

    private static func parseField(_ line: [UInt8]) throws(HTTPRequestRejection) -> HTTPHeaders.Field {
        guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
            throw .badRequest("Obsolete line folding")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .badRequest("Header without colon") }
        let name = HTTPFieldName(String(decoding: line[..<colon], as: UTF8.self))
        guard name.isValid else { throw .badRequest("Malformed header name") }
        let value = line[(colon + 1)...]
        guard value.allSatisfy(HTTPToken.isFieldValueCharacter) else {
            throw .badRequest("Control character in header value")
        }
        let text = String(bytes: value, encoding: .utf8) ?? String(value.map { Character(Unicode.Scalar($0)) })
        return HTTPHeaders.Field(name: name, value: text.trimmingHTTPWhitespace())
    }

    /// Parses `1*DIGIT` without overflow; a number too large for `Int` is a body that is too large.
    private static func parseDecimal(_ text: String) throws(HTTPRequestRejection) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .badRequest("Malformed Content-Length")
        }
        var value = 0
        for digit in text.utf8 {
            let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflowMultiply, !overflowAdd else { throw .bodyTooLarge }
            value = sum
        }
        return value
    }

    /// Parses `1*HEXDIG` without overflow; a chunk too large for `Int` is a body that is too large.
    private static func parseHexadecimal(_ text: String) throws(HTTPRequestRejection) -> Int {
        guard !text.isEmpty else { throw .badRequest("Missing chunk size") }
        var value = 0
        for character in text {
            guard let digit = character.hexDigitValue, character.isASCII else {
                throw .badRequest("Malformed chunk size")
            }
            let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: 16)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(digit)
            guard !overflowMultiply, !overflowAdd else { throw .bodyTooLarge }
            value = sum
        }
        return value
    }
}
