import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// An incremental HTTP/1.1 response parser for a client: feed it bytes as they arrive, in any split.
///
/// It skips 1xx responses, knows that HEAD, 204 and 304 responses have no body, reads `Content-Length`, chunked
/// (trailers are read and dropped) and close-delimited bodies, and enforces ``HTTPParserLimits``. Sizes use checked
/// arithmetic; malformed input throws ``NativeTransportError`` and never traps.
struct HTTPResponseParser {
    private enum State {
        case statusLine
        case headerLines
        case fixedBody
        case closeDelimitedBody
        case chunkSizeLine
        case chunkData
        case chunkDataEnd
        case trailerLines
        case complete
    }

    private let limits: HTTPParserLimits
    private let isHeadRequest: Bool
    private var state = State.statusLine
    private var line: [UInt8] = []
    private var headBytes = 0
    private var statusCode = 0
    private var isHTTP11 = true
    private var headers = HTTPHeaders()
    private var body = Data()
    /// The memory under ``body`` when it is a pooled buffer of the announced length, written in place
    /// (``BodyBufferPool``). `body` is this parser's alone and nobody reads it before its last byte is written.
    private var pooledBytes: UnsafeMutableRawPointer?
    /// Where a large body of announced length gets its memory.
    private let pool: BodyBufferPool
    private var remaining = 0
    /// Where body bytes go instead of ``response``'s body, when set (a body streamed to a file or to a caller).
    private var bodySink: BodySink?
    /// The body size limit in force (lifted for a body streamed to a caller, whom back-pressure protects).
    private var maxBodyBytes: Int
    /// Asked once per final (non-1xx) head: a sink for its body to be streamed to, or `nil` to keep the body as
    /// configured at creation.
    var headDecision: ((_ statusCode: Int, _ headers: HTTPHeaders) -> BodySink?)?
    /// Whether the final head has been parsed (its status and headers are in ``response``).
    private(set) var isHeadComplete = false
    /// Body bytes received so far (framing removed, still content-coded).
    private(set) var bodyCount = 0
    /// The body length the `Content-Length` announced, once the head is parsed.
    private(set) var expectedBodyCount: Int?
    /// Whether the final head names a `Content-Encoding` (the body bytes are coded).
    private(set) var isContentCoded = false
    private var keepAlive = true
    /// Whether a `101 Switching Protocols` ends the response (the request asked for an upgrade); otherwise it is
    /// malformed.
    var switchesProtocols = false
    /// Interim (1xx) responses skipped so far; more than ``maxInterimResponses`` is a malformed response.
    private var interimResponses = 0
    /// The most interim responses accepted before the final one.
    static let maxInterimResponses = 16

    /// Whether any byte has been fed: a pooled connection that fails before this is stale, not broken mid-response.
    private(set) var hasReceivedBytes = false

    /// Receives body bytes as they are parsed; it may throw to end the exchange.
    typealias BodySink = (UnsafeRawBufferPointer) throws(NativeTransportError) -> Void

    /// Creates a parser for the response to a request with method `method`; body bytes go to `bodySink` when
    /// given (``response`` then has an empty body), otherwise into ``response`` (a large body of announced length into
    /// memory from `pool`).
    init(method: String, limits: HTTPParserLimits, bodySink: BodySink? = nil, pool: BodyBufferPool = .shared) {
        self.limits = limits
        self.pool = pool
        maxBodyBytes = limits.maxBodyBytes
        isHeadRequest = method == "HEAD"
        self.bodySink = bodySink
    }

    /// Whether a whole response has been parsed.
    var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// The response, once ``isComplete``.
    var response: ParsedResponse {
        // A pooled body has its announced length from the start: only the bytes written so far are the body's.
        let body = pooledBytes != nil && bodyCount < self.body.count ? self.body.prefix(bodyCount) : self.body
        return ParsedResponse(statusCode: statusCode, headers: headers, body: body, keepAlive: keepAlive)
    }

    /// Parses `bytes`. Returns how many bytes were used once the response is complete (any rest belongs to no
    /// request and makes the connection unusable), or `nil` when more bytes are needed (all were used).
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(NativeTransportError) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return isComplete ? 0 : nil
        }
        if !bytes.isEmpty { hasReceivedBytes = true }
        let count = bytes.count
        var index = 0
        while index < count {
            switch state {
            case .complete:
                return index
            case .fixedBody, .chunkData:
                let take = min(remaining, count - index)
                try appendBody(base + index, count: take)
                remaining -= take
                index += take
                if remaining == 0 {
                    if case .fixedBody = state { state = .complete } else { state = .chunkDataEnd }
                }
            case .closeDelimitedBody:
                try appendBody(base + index, count: count - index)
                index = count
            case .statusLine, .headerLines, .chunkSizeLine, .chunkDataEnd, .trailerLines:
                let end =
                    memchr(base + index, Int32(HTTPSyntax.lf), count - index).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? count
                try appendLine(base + index, count: end - index)
                if end == count { return nil }
                index = end + 1
                if line.last == HTTPSyntax.cr { line.removeLast() }
                try handleLine()
                line.removeAll(keepingCapacity: true)
            }
        }
        return isComplete ? index : nil
    }

    /// Takes a final head that arrived already parsed (an HTTP/2 HEADERS frame, whose fields HPACK's limits bounded):
    /// the body that follows is fed as bytes and framed by its `Content-Length`, or runs until
    /// ``finishAtEndOfStream()`` (the stream's end). A status below 200 is ignored (the final head follows).
    ///
    /// - Throws: ``NativeTransportError`` when the fields frame no body (a bad `Content-Length`) or exceed a limit.
    mutating func acceptHead(statusCode: Int, headers: HTTPHeaders) throws(NativeTransportError) {
        guard statusCode >= 200, case .statusLine = state else { return }
        hasReceivedBytes = true
        self.statusCode = statusCode
        self.headers = headers
        try finishHead()
    }

    /// Tells the parser the server closed the connection. Returns `true` when that completed the response (a
    /// close-delimited body), `false` when nothing had arrived at all.
    ///
    /// - Throws: ``NativeTransportError`` with code `closedByPeer` when the response was cut short.
    mutating func finishAtEndOfStream() throws(NativeTransportError) -> Bool {
        switch state {
        case .complete:
            return true
        case .closeDelimitedBody:
            state = .complete
            keepAlive = false
            return true
        case .statusLine where !hasReceivedBytes:
            return false
        default:
            throw NativeTransportError(code: .closedByPeer, reason: "the connection closed in the middle of a response")
        }
    }

    // MARK: Reading a body in place

    /// Where the socket may write the next body bytes itself, skipping the copy from a read buffer: the unwritten
    /// part of a pooled body (a fixed-length body into memory), less the last `reserve` bytes, when that leaves at
    /// least `reserve` bytes; otherwise `nil`. The last bytes go through ``feed(_:)``, which notices bytes after the
    /// body (a connection that sent them is not reused).
    func directBodyTarget(reserve: Int) -> UnsafeMutableRawBufferPointer? {
        guard let pooledBytes, case .fixedBody = state, remaining >= 2 * reserve else { return nil }
        return UnsafeMutableRawBufferPointer(start: pooledBytes + bodyCount, count: remaining - reserve)
    }

    /// Counts `count` body bytes the socket wrote into ``directBodyTarget(reserve:)``.
    mutating func didReceiveBodyDirectly(_ count: Int) {
        precondition(count <= remaining, "more bytes than the body target holds")
        bodyCount += count
        remaining -= count
        if remaining == 0 { state = .complete }
    }

    // MARK: Lines

    private mutating func appendLine(_ start: UnsafePointer<UInt8>, count: Int) throws(NativeTransportError) {
        let limit: Int
        switch state {
        case .chunkSizeLine, .chunkDataEnd: limit = limits.maxChunkLineBytes
        default: limit = limits.maxHeadBytes - headBytes
        }
        guard count <= limit - line.count else {
            throw NativeTransportError(code: .responseTooLarge, reason: "the response head exceeds the size limit")
        }
        line.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    private mutating func handleLine() throws(NativeTransportError) {
        switch state {
        case .statusLine:
            headBytes += line.count + 2
            if line.isEmpty { return }  // tolerate stray blank lines before a status line
            try parseStatusLine()
            headers.reserveCapacity(16)  // most heads have fewer fields: one allocation instead of five
            state = .headerLines
        case .headerLines:
            headBytes += line.count + 2
            if line.isEmpty {
                try finishHead()
            } else {
                let field = try parseField()
                headers.add(field.name, field.value)
            }
        case .chunkSizeLine:
            try parseChunkSize()
        case .chunkDataEnd:
            guard line.isEmpty else { throw malformed("missing CRLF after chunk data") }
            state = .chunkSizeLine
        case .trailerLines:
            headBytes += line.count + 2
            if line.isEmpty {
                state = .complete
            } else {
                _ = try parseField()
            }
        default:
            break
        }
    }

    private mutating func parseStatusLine() throws(NativeTransportError) {
        guard line.count >= 12, line[0..<7].elementsEqual("HTTP/1.".utf8), line[8] == HTTPSyntax.space else {
            throw malformed("invalid status line")
        }
        switch line[7] {
        case UInt8(ascii: "1"): isHTTP11 = true
        case UInt8(ascii: "0"): isHTTP11 = false
        default: throw malformed("unsupported HTTP version")
        }
        var code = 0
        for byte in line[9..<12] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { throw malformed("invalid status code") }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard code >= 100, line.count == 12 || line[12] == HTTPSyntax.space else {
            throw malformed("invalid status code")
        }
        statusCode = code
    }

    /// The current line as a header field: its name (prebuilt when servers commonly send it, ``KnownFieldNames``)
    /// and its value without the spaces and tabs around it. Read in place: no copy of the line but the two strings.
    private func parseField() throws(NativeTransportError) -> HTTPHeaders.Field {
        let parsed = line.withUnsafeBufferPointer { line -> Result<HTTPHeaders.Field, NativeTransportError> in
            guard let first = line.first, first != HTTPSyntax.space, first != HTTPSyntax.tab else {
                return .failure(malformed("obsolete line folding in a header field"))
            }
            guard let colon = line.firstIndex(of: HTTPSyntax.colon), colon > 0 else {
                return .failure(malformed("header field without a name"))
            }
            let nameBytes = UnsafeBufferPointer(rebasing: line[0..<colon])
            // A prebuilt name is a token already; only another name's bytes are checked.
            let known = KnownFieldNames.name(spelled: nameBytes)
            guard known != nil || HTTPToken.isToken(nameBytes) else {
                return .failure(malformed("invalid header field name"))
            }
            var valueStart = colon + 1
            var valueEnd = line.count
            while valueStart < valueEnd && (line[valueStart] == HTTPSyntax.space || line[valueStart] == HTTPSyntax.tab)
            {
                valueStart += 1
            }
            while valueEnd > valueStart
                && (line[valueEnd - 1] == HTTPSyntax.space || line[valueEnd - 1] == HTTPSyntax.tab)
            {
                valueEnd -= 1
            }
            let valueBytes = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
            guard !valueBytes.contains(where: { $0 == 0 || $0 == HTTPSyntax.cr }) else {
                return .failure(malformed("invalid character in a header field value"))
            }
            let name = known ?? HTTPFieldName(String(decoding: nameBytes, as: UTF8.self))
            return .success(HTTPHeaders.Field(name: name, value: String(decoding: valueBytes, as: UTF8.self)))
        }
        return try parsed.get()
    }

    // MARK: Framing

    private mutating func finishHead() throws(NativeTransportError) {
        if statusCode == 101 && switchesProtocols {
            // RFC 9110 §15.2.2: the head ends the response; what follows is the new protocol's.
            isHeadComplete = true
            keepAlive = false
            state = .complete
            return
        }
        if statusCode < 200 {
            guard statusCode != 101 else { throw malformed("unexpected 101 Switching Protocols") }
            interimResponses += 1
            guard interimResponses <= Self.maxInterimResponses else {
                throw malformed("more than \(Self.maxInterimResponses) interim responses")
            }
            headers = HTTPHeaders()
            headBytes = 0
            state = .statusLine
            return
        }
        isHeadComplete = true
        if let headDecision, let sink = headDecision(statusCode, headers) {
            bodySink = sink
            maxBodyBytes = Int.max
        }
        // One pass over the fields for everything framing needs (lookups by name would scan them once each).
        var connectionClose = false
        var connectionKeepAlive = false
        var transferCodings: [String] = []
        var lengthValues: [String] = []
        isContentCoded = false
        // Names are told apart by length first: most fields (`Date`, `Server`, `Content-Type`, …) then take no
        // string comparison at all (25 per response before, BENCHMARKS.md). Exact here, not in general: every name
        // reaching this point is an ASCII token (checked in parseField, or prebuilt), and only non-ASCII strings can
        // be equal with different byte counts.
        for field in headers.fields {
            let name = field.name.canonicalName
            switch name.utf8.count {
            case 14 where name == "content-length": lengthValues.append(field.value)
            case 10 where name == "connection":
                connectionClose = connectionClose || HTTPFieldList.contains("close", in: field.value)
                connectionKeepAlive = connectionKeepAlive || HTTPFieldList.contains("keep-alive", in: field.value)
            case 17 where name == "transfer-encoding": transferCodings += HTTPFieldList.elements(of: field.value)
            case 16 where name == "content-encoding":
                if HTTPFieldList.elements(of: field.value).contains(where: { $0 != "identity" }) {
                    isContentCoded = true
                }
            default: continue
            }
        }
        keepAlive = isHTTP11 ? !connectionClose : connectionKeepAlive
        if isHeadRequest || statusCode == 204 || statusCode == 304 {
            state = .complete
            return
        }
        if !transferCodings.isEmpty {
            if !lengthValues.isEmpty { keepAlive = false }
            if transferCodings.last == "chunked" {
                state = .chunkSizeLine
            } else {
                keepAlive = false
                state = .closeDelimitedBody
            }
            return
        }
        if let length = try contentLength(lengthValues) {
            guard length <= maxBodyBytes else {
                throw NativeTransportError(
                    code: .responseTooLarge, reason: "Content-Length \(length) exceeds the limit")
            }
            if bodySink == nil {
                if let pooled = pool.body(count: length) {
                    body = pooled.data
                    pooledBytes = pooled.bytes
                } else {
                    body.reserveCapacity(min(length, 1 << 20))
                }
            }
            expectedBodyCount = length
            remaining = length
            state = length == 0 ? .complete : .fixedBody
            return
        }
        keepAlive = false
        state = .closeDelimitedBody
    }

    /// The length the `Content-Length` values agree on (a list of equal values is allowed), `nil` without any.
    private func contentLength(_ values: [String]) throws(NativeTransportError) -> Int? {
        var result: Int?
        for value in values {
            var element: Int?
            var digits = 0
            var trailingSpace = false
            func endElement() throws(NativeTransportError) {
                guard let value = element else { throw malformed("invalid Content-Length") }
                if let result, result != value { throw malformed("conflicting Content-Length values") }
                result = value
                element = nil
                digits = 0
                trailingSpace = false
            }
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard !trailingSpace, digits < 18 else { throw malformed("invalid Content-Length") }
                    element = (element ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                case HTTPSyntax.space, HTTPSyntax.tab:
                    if element != nil { trailingSpace = true }
                case UInt8(ascii: ","):
                    try endElement()
                default:
                    throw malformed("invalid Content-Length")
                }
            }
            try endElement()
        }
        return result
    }

    private mutating func parseChunkSize() throws(NativeTransportError) {
        var size = 0
        var digits = 0
        for byte in line {
            if byte == HTTPSyntax.semicolon || byte == HTTPSyntax.space || byte == HTTPSyntax.tab { break }
            guard let digit = HTTPSyntax.hexValue(byte) else { throw malformed("invalid chunk size") }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow, digits < 15 else { throw malformed("chunk size too large") }
            size = shifted + digit
            digits += 1
        }
        guard digits > 0 else { throw malformed("missing chunk size") }
        if size == 0 {
            headBytes = 0
            state = .trailerLines
            return
        }
        guard size <= maxBodyBytes - bodyCount else {
            throw NativeTransportError(code: .responseTooLarge, reason: "the chunked body exceeds the size limit")
        }
        remaining = size
        state = .chunkData
    }

    private mutating func appendBody(_ start: UnsafePointer<UInt8>, count: Int) throws(NativeTransportError) {
        guard count <= maxBodyBytes - bodyCount else {
            throw NativeTransportError(code: .responseTooLarge, reason: "the response body exceeds the size limit")
        }
        let offset = bodyCount
        bodyCount += count
        if let bodySink {
            try bodySink(UnsafeRawBufferPointer(start: start, count: count))
        } else if let pooledBytes {
            // The fixed-length state never takes more than the announced length, the buffer's size.
            (pooledBytes + offset).copyMemory(from: start, byteCount: count)
        } else {
            body.append(start, count: count)
        }
    }

    private func malformed(_ reason: String) -> NativeTransportError {
        NativeTransportError(code: .malformedResponse, reason: reason)
    }
}
