import BothamNetworking
import Foundation

/// A response body as it goes on the wire: parts of payload, each written after its delay, framed as chunks of
/// `Transfer-Encoding: chunked` or sent as they are.
///
/// The parts refer to the response's own `Data` (slices share its storage), so building a script copies no body
/// bytes, however large the body.
struct ResponseBodyScript {
    /// How the payload is framed.
    enum Framing: Equatable {
        /// The bytes as they are (`Content-Length` or end-of-connection framing).
        case raw
        /// Chunked coding, in chunks of at most `maxChunkSize` bytes (`nil`: one chunk per part).
        case chunked(maxChunkSize: Int?)
    }

    var parts: [StubChunk]
    var framing: Framing
    /// Whether the terminating zero-length chunk follows the parts (chunked framing only).
    var isTerminated: Bool
    /// Stop after this many wire bytes (framing included), or `nil` to send everything.
    var wireLimit: Int?

    /// A script that sends nothing.
    static let empty = ResponseBodyScript(parts: [], framing: .raw, isTerminated: false, wireLimit: nil)

    static let chunkEnd = Array("\r\n".utf8)
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// The number of payload bytes, framing excluded.
    var payloadCount: Int {
        parts.reduce(0) { $0 + $1.bytes.count }
    }

    /// The number of bytes the whole script puts on the wire, framing included (ignoring ``wireLimit``).
    var wireCount: Int {
        var total = 0
        for part in parts {
            guard case .chunked(let maxChunkSize) = framing else {
                total += part.bytes.count
                continue
            }
            Self.forEachChunk(of: part.bytes, maxChunkSize: maxChunkSize) { chunk in
                total += Self.chunkHeader(chunk.count).count + chunk.count + Self.chunkEnd.count
            }
        }
        return total + (isTerminated && framing != .raw ? Self.lastChunk.count : 0)
    }

    /// The script cut after its first `count` payload bytes (the delays of the parts kept are kept).
    func prefix(payloadBytes count: Int) -> ResponseBodyScript {
        var copy = self
        copy.parts = []
        var remaining = max(0, count)
        for part in parts {
            guard remaining > 0 else { break }
            let kept = min(remaining, part.bytes.count)
            let start = part.bytes.startIndex
            copy.parts.append(StubChunk(part.bytes[start..<(start + kept)], after: part.delay))
            remaining -= kept
        }
        return copy
    }

    /// Writes the script through `writer`: for each part, its delay, then its bytes handed to the socket before the
    /// next delay; then the terminating chunk. Stops early once the writer's wire limit is reached.
    func write(to writer: inout ResponseBodyWriter) throws(ConnectionIOError) {
        for part in parts {
            guard !writer.isCutOff else { break }
            try writer.pause(for: part.delay)
            switch framing {
            case .raw:
                try writer.append(part.bytes, isPayload: true)
            case .chunked(let maxChunkSize):
                var failure: ConnectionIOError?
                Self.forEachChunk(of: part.bytes, maxChunkSize: maxChunkSize) { chunk in
                    guard failure == nil, !writer.isCutOff else { return }
                    failure = capturingFailure { () throws(ConnectionIOError) in
                        try writer.append(Self.chunkHeader(chunk.count), isPayload: false)
                        try writer.append(chunk, isPayload: true)
                        try writer.append(Self.chunkEnd, isPayload: false)
                    }
                }
                if let failure { throw failure }
            }
            try writer.flush()
        }
        if isTerminated, framing != .raw {
            try writer.append(Self.lastChunk, isPayload: false)
        }
        try writer.flush()
    }

    /// The size line of a chunk of `count` bytes.
    private static func chunkHeader(_ count: Int) -> [UInt8] {
        Array("\(String(count, radix: 16))\r\n".utf8)
    }

    /// Calls `body` with each chunk of `bytes`, in order: slices of at most `maxChunkSize` bytes (`nil`: all of
    /// `bytes`). Empty `bytes` give no chunk, since a zero-length chunk would end the body.
    private static func forEachChunk(of bytes: Data, maxChunkSize: Int?, _ body: (Data) -> Void) {
        let size = max(1, maxChunkSize ?? bytes.count)
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = min(bytes.endIndex, offset + size)
            body(bytes[offset..<end])
            offset = end
        }
    }
}

/// Writes a response body to a connection through a small buffer, applying the response's throttle and wire limit
/// and counting the payload bytes handed to the socket.
///
/// Small pieces (chunk framing, small parts) are gathered into a buffer of at most ``bufferCapacity`` bytes;
/// larger pieces are written straight from the response's storage. Every write waits while the socket is full, so
/// a client that stops reading stops the writer and the count stops growing: at most ``bufferCapacity`` bytes of
/// the body are ever held here besides the response itself.
struct ResponseBodyWriter {
    /// The most bytes gathered before they are written.
    static let bufferCapacity = 64 * 1024

    private let io: ConnectionIO
    private let throttle: MockResponse.Throttle?
    /// The server-wide total of payload bytes handed to the socket.
    private let payloadCounter: Lock<Int>
    /// Wire bytes still allowed, or `nil` for no limit.
    private var remainingWire: Int?
    /// Wire bytes written (or buffered) since the last throttle pause.
    private var sentInPeriod = 0
    private var buffer: [UInt8] = []
    /// How many bytes of ``buffer``, in order, are payload or framing (adjacent runs of one kind merged).
    private var runs: [(count: Int, isPayload: Bool)] = []

    init(io: ConnectionIO, throttle: MockResponse.Throttle?, wireLimit: Int?, payloadCounter: Lock<Int>) {
        self.io = io
        self.throttle = throttle.flatMap { $0.bytesPerPeriod > 0 ? $0 : nil }
        self.payloadCounter = payloadCounter
        self.remainingWire = wireLimit.map { max(0, $0) }
        buffer.reserveCapacity(Self.bufferCapacity)
    }

    /// Whether the wire limit has been reached: nothing more will be written.
    var isCutOff: Bool { remainingWire == 0 }

    /// Writes what is buffered, then waits `duration`.
    mutating func pause(for duration: Duration) throws(ConnectionIOError) {
        guard duration > .zero else { return }
        try flush()
        try io.pause(for: duration)
    }

    /// Adds `bytes` to the body.
    mutating func append(_ bytes: some ContiguousBytes, isPayload: Bool) throws(ConnectionIOError) {
        let failure = bytes.withUnsafeBytes { raw in
            capturingFailure { () throws(ConnectionIOError) in try appendBytes(raw, isPayload: isPayload) }
        }
        if let failure { throw failure }
    }

    private mutating func appendBytes(_ bytes: UnsafeRawBufferPointer, isPayload: Bool) throws(ConnectionIOError) {
        var rest = bytes
        while !rest.isEmpty, !isCutOff {
            if let throttle, sentInPeriod >= throttle.bytesPerPeriod {
                try flush()
                try io.pause(for: throttle.period)
                sentInPeriod = 0
            }
            var count = rest.count
            if let remainingWire { count = min(count, remainingWire) }
            if let throttle { count = min(count, throttle.bytesPerPeriod - sentInPeriod) }
            let piece = UnsafeRawBufferPointer(rebasing: rest[..<count])
            if buffer.count + piece.count > Self.bufferCapacity { try flush() }
            if piece.count >= Self.bufferCapacity {
                try io.write(piece) { sent in if isPayload { addPayload(sent) } }
            } else {
                buffer.append(contentsOf: piece)
                if let last = runs.last, last.isPayload == isPayload {
                    runs[runs.count - 1].count += piece.count
                } else {
                    runs.append((piece.count, isPayload))
                }
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            remainingWire = remainingWire.map { $0 - count }
            sentInPeriod += count
        }
    }

    /// Writes everything buffered.
    mutating func flush() throws(ConnectionIOError) {
        guard !buffer.isEmpty else { return }
        var runs = self.runs
        var runIndex = 0
        let io = self.io
        let counter = payloadCounter
        let failure = buffer.withUnsafeBytes { raw in
            capturingFailure { () throws(ConnectionIOError) in
                try io.write(raw) { sent in
                    var remaining = sent
                    var payload = 0
                    while remaining > 0, runIndex < runs.count {
                        let taken = min(remaining, runs[runIndex].count)
                        if runs[runIndex].isPayload { payload += taken }
                        runs[runIndex].count -= taken
                        remaining -= taken
                        if runs[runIndex].count == 0 { runIndex += 1 }
                    }
                    if payload > 0 { counter.withLock { $0 += payload } }
                }
            }
        }
        if let failure { throw failure }
        buffer.removeAll(keepingCapacity: true)
        self.runs.removeAll(keepingCapacity: true)
    }

    private func addPayload(_ count: Int) {
        payloadCounter.withLock { $0 += count }
    }
}
