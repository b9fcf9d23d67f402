import Foundation

/// Bytes waiting to be written, kept as the caller's `Data` values (no copy into one big buffer).
struct ByteQueue {
    private var chunks: [Data] = []
    private var offset = 0

    /// How many bytes are waiting.
    private(set) var count = 0

    /// Whether nothing is waiting.
    var isEmpty: Bool { chunks.isEmpty }

    /// Queues `data`.
    mutating func append(_ data: Data) {
        if !data.isEmpty {
            chunks.append(data)
            count += data.count
        }
    }

    /// Calls `write` with the unwritten bytes of the first chunk and drops the count it returns (a negative count
    /// drops nothing). Returns that count.
    mutating func writeFirst(_ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard let first = chunks.first else { return 0 }
        let written = first.withUnsafeBytes { bytes in
            write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        if written > 0 { consume(written, ofFirstChunkSized: first.count) }
        return written
    }

    /// Removes and returns up to `maximum` bytes from the front.
    mutating func take(upTo maximum: Int) -> Data? {
        guard let first = chunks.first else { return nil }
        let end = min(first.count, offset + maximum)
        let piece = first.subdata(in: first.startIndex + offset..<first.startIndex + end)
        consume(end - offset, ofFirstChunkSized: first.count)
        return piece
    }

    private mutating func consume(_ consumed: Int, ofFirstChunkSized size: Int) {
        offset += consumed
        count -= consumed
        if offset >= size {
            chunks.removeFirst()
            offset = 0
        }
    }
}
