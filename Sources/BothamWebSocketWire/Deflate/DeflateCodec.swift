import CBothamZlib

/// One direction's raw-deflate compressor for permessage-deflate (RFC 7692 §7.2.1): each message is compressed
/// with a sync flush and the trailing `00 00 FF FF` removed; the window is kept between messages unless context
/// takeover is off.
///
/// A class because zlib keeps a pointer back to its `z_stream`, which must stay at one address; owned by one
/// session.
final class DeflateCompressor {
    private let stream: UnsafeMutablePointer<z_stream>
    private let resetsContext: Bool
    private var ready = false
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

    /// A compressor whose window is at most `2^windowBits` bytes (8–15), reset after each message when
    /// `noContextTakeover`.
    ///
    /// zlib's raw deflate cannot use a 256-byte window: for 8 it runs with 9 and run-length matches only
    /// (distance 1), which any window decodes.
    init(windowBits: Int, noContextTakeover: Bool) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        resetsContext = noContextTakeover
        let bits = Int32(min(15, max(9, windowBits)))
        let strategy = windowBits <= 8 ? Z_RLE : Z_DEFAULT_STRATEGY
        ready =
            deflateInit2_(
                stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -bits, 8, strategy, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if ready { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// `message` compressed, without the final `00 00 FF FF`; nil if zlib failed (out of memory).
    func compress(_ message: [UInt8]) -> [UInt8]? {
        guard ready else { return nil }
        // zlib writes nothing for a flush with no new input after a flush; an empty message is the one byte of an
        // empty stored block whose LEN and NLEN the receiver's appended 00 00 FF FF supply (RFC 7692 §7.2.3.6).
        guard !message.isEmpty else { return [0x00] }
        var output: [UInt8] = []
        output.reserveCapacity(message.count / 2 + 64)
        let ok = message.withUnsafeBufferPointer { input -> Bool in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while true {
                let capacity = scratch.count
                let status = scratch.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(capacity)
                    return deflate(stream, Z_SYNC_FLUSH)
                }
                let produced = capacity - Int(stream.pointee.avail_out)
                output.append(contentsOf: scratch[0..<produced])
                guard status == Z_OK || status == Z_BUF_ERROR else { return false }
                // Done once the flush fit: input consumed and room left over.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return true }
            }
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        guard ok, output.count >= 4, output.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]) else { return nil }
        output.removeLast(4)
        if resetsContext { deflateReset(stream) }
        return output
    }
}

/// One direction's raw-deflate decompressor for permessage-deflate (RFC 7692 §7.2.2): a message's frames are fed as
/// they arrive, `00 00 FF FF` after its last, and the output is bounded so a small message cannot inflate past the
/// message limit.
final class DeflateDecompressor {
    /// Why inflating stopped.
    enum Failure: Error, Equatable {
        /// The output would pass the bound.
        case tooBig
        /// The data is not valid deflate.
        case corrupt(String)
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let resetsContext: Bool
    private var ready = false
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

    /// A decompressor for a peer whose window is at most `2^windowBits` bytes, reset after each message when the
    /// peer does no context takeover.
    init(windowBits: Int, noContextTakeover: Bool) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        resetsContext = noContextTakeover
        // 9 at least: a peer on zlib asked for 8 compresses with 9 (zlib cannot do 8); a larger window always decodes.
        let bits = Int32(min(15, max(9, windowBits)))
        ready = inflateInit2_(stream, -bits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if ready { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, calling `consume` with each piece of output (so the caller validates and keeps it as it
    /// comes); false as soon as `consume` refuses a piece. Throws `.tooBig` as soon as the output of this call
    /// would pass `limit` bytes (after handing `consume` the bytes up to the limit).
    func inflate(
        _ input: UnsafeRawBufferPointer, limit: Int, consume: (ArraySlice<UInt8>) -> Bool
    ) throws(Failure) -> Bool {
        guard ready else { throw .corrupt("zlib could not start") }
        guard let base = input.baseAddress, !input.isEmpty else { return true }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        var total = 0
        var lastUnread = -1
        while true {
            defer { lastUnread = Int(stream.pointee.avail_in) }
            // Never ask zlib for more than one byte past the limit: a bomb stops within one scratch buffer.
            let capacity = min(scratch.count, max(1, limit - total + 1))
            let status = scratch.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(capacity)
                return CBothamZlib.inflate(stream, Z_SYNC_FLUSH)
            }
            let produced = capacity - Int(stream.pointee.avail_out)
            let unread = Int(stream.pointee.avail_in)
            total += produced
            if total > limit {
                // What fits the limit is read first, so the first violation by position is the one reported
                // however the input was split.
                let fitting = produced - (total - limit)
                if fitting > 0 && !consume(scratch[0..<fitting]) { return false }
                throw .tooBig
            }
            if produced > 0 && !consume(scratch[0..<produced]) { return false }
            switch status {
            case Z_OK:
                if unread == 0 && stream.pointee.avail_out > 0 { return true }
                if produced == 0 && unread == lastUnread { throw .corrupt("no progress") }
            case Z_BUF_ERROR:
                // No progress possible: all input consumed and nothing pending.
                if stream.pointee.avail_in == 0 { return true }
                throw .corrupt("no progress")
            case Z_STREAM_END:
                // A final block (BFINAL) ends the raw stream; RFC 7692 allows it: start a fresh stream for more.
                if inflateReset(stream) != Z_OK { throw .corrupt("reset failed") }
                if stream.pointee.avail_in == 0 { return true }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .corrupt(message)
            }
        }
    }

    /// Ends a message: resets the window when the peer does no context takeover.
    func endMessage() {
        if resetsContext && ready { inflateReset(stream) }
    }
}
