import BothamNetworking
import CBothamNativeShims
import CBothamZlib
import Foundation

/// Decodes `gzip` and `deflate` bodies with zlib, never producing more than a limit (no decompression bombs).
enum ContentDecoder {
    /// The `Accept-Encoding` value sent when decompression is on.
    static let acceptEncoding = "gzip, deflate"

    /// Decodes `response` when its `Content-Encoding` is one `gzip`, `x-gzip` or `deflate` coding and drops the
    /// `Content-Encoding` and `Content-Length` fields that no longer describe the body. Other codings (or none) are
    /// returned unchanged.
    ///
    /// - Throws: ``NativeTransportError`` with code `responseTooLarge` past `limit` decoded bytes, or
    ///   `decompression` for corrupt data.
    static func decode(_ response: ParsedResponse, limit: Int) throws(NativeTransportError) -> ParsedResponse {
        guard let coding = response.headers[.contentEncoding].map(HTTPFieldList.elements(of:)), coding.count == 1,
            !response.body.isEmpty
        else { return response }
        let body: Data
        switch coding[0] {
        case "gzip", "x-gzip":
            body = try inflate(response.body, windowBits: 15 + 16, limit: limit)
        case "deflate":
            do {
                body = try inflate(response.body, windowBits: 15, limit: limit)
            } catch  where error.code == .decompression {
                body = try inflate(response.body, windowBits: -15, limit: limit)  // raw deflate, as some servers send
            }
        default:
            return response
        }
        var decoded = response
        decoded.body = body
        decoded.headers.remove(.contentEncoding)
        decoded.headers.remove(.contentLength)
        return decoded
    }

    /// Inflates `input`; gzip streams may hold several members.
    static func inflate(_ input: Data, windowBits: Int32, limit: Int) throws(NativeTransportError) -> Data {
        var stream = z_stream()
        guard botham_inflate_init2(&stream, windowBits) == Z_OK else {
            throw NativeTransportError(code: .decompression, reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 16 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        output.reserveCapacity(min(limit, max(chunkSize, input.count * 4)))
        let result: Result<Void, NativeTransportError> = input.withUnsafeBytes { inputBytes in
            guard let base = inputBytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return .success(()) }
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = uInt(clamping: inputBytes.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    return CBothamZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                guard produced <= limit - output.count else {
                    return .failure(
                        NativeTransportError(code: .responseTooLarge, reason: "the decoded body exceeds the limit"))
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in > 0, windowBits > 15 else { return .success(()) }
                    guard inflateReset(&stream) == Z_OK else {
                        return .failure(NativeTransportError(code: .decompression, reason: "zlib reset failed"))
                    }
                case Z_OK:
                    if stream.avail_in == 0 && produced < chunkSize {
                        return .failure(
                            NativeTransportError(code: .decompression, reason: "the compressed body is truncated"))
                    }
                case Z_BUF_ERROR where produced > 0:
                    continue
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return .failure(NativeTransportError(code: .decompression, reason: "corrupt body: \(message)"))
                }
            }
        }
        try result.get()
        return output
    }
}
