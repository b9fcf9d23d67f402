import BothamNetworking
import CBothamNativeShims
import CBothamZlib
import Foundation

/// Decodes a `gzip` or `deflate` body piece by piece as it arrives, for a streamed response: each piece of input
/// gives whatever output it completes, so decoded bytes reach the reader as soon as zlib can produce them.
///
/// Used on the event loop only. The `z_stream` lives at a fixed address (zlib keeps a pointer back to it).
final class StreamingInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var windowBits: Int32
    private var started = false
    private var ended = false
    /// The first bytes of a `deflate` body, until there are two to tell zlib from raw deflate.
    private var pendingHeader: [UInt8] = []
    private let isDeflate: Bool
    private var output = [UInt8](repeating: 0, count: 32 * 1024)

    /// An inflater for the `Content-Encoding` value `coding`, or `nil` when it is not one coding that can be decoded.
    init?(contentEncoding coding: String) {
        let codings = HTTPFieldList.elements(of: coding)
        guard codings.count == 1 else { return nil }
        switch codings[0] {
        case "gzip", "x-gzip":
            windowBits = 15 + 16
            isDeflate = false
        case "deflate":
            windowBits = 15
            isDeflate = true
        default:
            return nil
        }
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The decoded bytes `bytes` complete (possibly none).
    func feed(_ bytes: UnsafeRawBufferPointer) throws(NativeTransportError) -> Data {
        guard !bytes.isEmpty else { return Data() }
        if !started {
            if isDeflate && pendingHeader.count + bytes.count < 2 {
                pendingHeader.append(contentsOf: bytes)
                return Data()
            }
            var first = pendingHeader
            first.append(contentsOf: bytes)
            pendingHeader = []
            if isDeflate {
                // A zlib stream starts with CM 8 and a header whose 16-bit value is a multiple of 31; anything else is
                // raw deflate, which some servers send as "deflate".
                let isZlib = first[0] & 0x0F == 8 && (Int(first[0]) << 8 | Int(first[1])) % 31 == 0
                if !isZlib { windowBits = -15 }
            }
            guard botham_inflate_init2(stream, windowBits) == Z_OK else {
                throw NativeTransportError(code: .decompression, reason: "zlib could not start")
            }
            started = true
            let result = first.withUnsafeBytes { raw in Result { () throws(NativeTransportError) in try inflate(raw) } }
            return try result.get()
        }
        return try inflate(bytes)
    }

    /// Checks that the coded body ended where its coding says it does.
    func finish() throws(NativeTransportError) {
        guard started, !ended else {
            if !started && !pendingHeader.isEmpty {
                throw NativeTransportError(code: .decompression, reason: "the compressed body is truncated")
            }
            return
        }
        throw NativeTransportError(code: .decompression, reason: "the compressed body is truncated")
    }

    private func inflate(_ input: UnsafeRawBufferPointer) throws(NativeTransportError) -> Data {
        guard let base = input.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return Data() }
        var decoded = Data()
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = uInt(clamping: input.count)
        while stream.pointee.avail_in > 0 || !ended {
            if ended {
                // Bytes after the end of a gzip member: another member (gzip allows several), or garbage.
                guard windowBits > 15, inflateReset(stream) == Z_OK else {
                    throw NativeTransportError(
                        code: .decompression, reason: "data after the end of the compressed body")
                }
                ended = false
            }
            let capacity = output.count
            let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(capacity)
                return CBothamZlib.inflate(stream, Z_NO_FLUSH)
            }
            let produced = capacity - Int(stream.pointee.avail_out)
            decoded.append(contentsOf: output[0..<produced])
            switch status {
            case Z_STREAM_END:
                ended = true
                if stream.pointee.avail_in == 0 { return decoded }
            case Z_OK:
                if stream.pointee.avail_in == 0 && produced < capacity { return decoded }
            case Z_BUF_ERROR:
                return decoded
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw NativeTransportError(code: .decompression, reason: "corrupt body: \(message)")
            }
        }
        return decoded
    }
}
