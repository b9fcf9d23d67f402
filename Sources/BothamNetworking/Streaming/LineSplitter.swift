import Foundation

/// Splits bytes that arrive in arbitrary chunks into lines ended by LF, CRLF or a lone CR (the line ends of
/// Server-Sent Events, and a superset of those of JSON Lines), whatever the chunk boundaries: a CRLF split
/// across two chunks is one line end.
struct LineSplitter {
    private var pending: [UInt8] = []
    private var afterCR = false
    let maxLineBytes: Int

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Calls `emit` with each complete line in `bytes` (without its line end), in order.
    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, emit: (UnsafeBufferPointer<UInt8>) throws(APIClientError) -> Void
    ) throws(APIClientError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var index = 0
        if afterCR && count > 0 {
            afterCR = false
            if base[0] == 0x0A { index = 1 }
        }
        var start = index
        while index < count {
            let byte = base[index]
            if byte == 0x0A || byte == 0x0D {
                let piece = UnsafeBufferPointer(start: base + start, count: index - start)
                if pending.isEmpty {
                    try check(piece.count, piece)
                    try emit(piece)
                } else {
                    try append(piece)
                    try pending.withUnsafeBufferPointer { (line) throws(APIClientError) in try emit(line) }
                    pending.removeAll(keepingCapacity: true)
                }
                if byte == 0x0D {
                    if index + 1 < count {
                        if base[index + 1] == 0x0A { index += 1 }
                    } else {
                        afterCR = true
                    }
                }
                index += 1
                start = index
            } else {
                index += 1
            }
        }
        if start < count {
            try append(UnsafeBufferPointer(start: base + start, count: count - start))
        }
    }

    /// The bytes after the last line end (an unterminated last line), if any.
    var remainder: [UInt8] { pending }

    private mutating func append(_ piece: UnsafeBufferPointer<UInt8>) throws(APIClientError) {
        try check(pending.count + piece.count, piece)
        pending.append(contentsOf: piece)
    }

    /// Throws when a line of `lineBytes` is too long; the error carries the line's first 1 KiB, whatever the
    /// chunking (`pending` then `piece`).
    private func check(_ lineBytes: Int, _ piece: UnsafeBufferPointer<UInt8>) throws(APIClientError) {
        guard lineBytes <= maxLineBytes else {
            var start = Data(pending.prefix(1024))
            start.append(contentsOf: piece.prefix(1024 - start.count))
            throw .parsingError(body: start, underlying: HTTPBodyStream.DecodingError.lineTooLong(limit: maxLineBytes))
        }
    }
}

extension Data {
    /// `withUnsafeBytes` for a body that throws ``APIClientError`` (Foundation's only rethrows untyped errors).
    func withBytes(_ body: (UnsafeRawBufferPointer) throws(APIClientError) -> Void) throws(APIClientError) {
        var failure: APIClientError?
        withUnsafeBytes { bytes in
            do throws(APIClientError) {
                try body(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
