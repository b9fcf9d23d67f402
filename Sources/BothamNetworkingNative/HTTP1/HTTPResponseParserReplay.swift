import BothamNetworking

/// A package-wide entry point to ``HTTPResponseParser`` for fuzzing (`Fuzz/FuzzResponseParser`) and replaying
/// inputs: feeds bytes the way a connection does, in pieces, then tells the parser the stream ended.
package enum HTTPResponseParserReplay {
    /// What the parser made of the bytes.
    package enum Outcome: Equatable {
        /// A whole response, and how many bytes it used.
        case response(Summary, used: Int)
        /// The bytes ended before any response started.
        case nothing
        /// The parser rejected the bytes with this error code.
        case failed(NativeTransportError.Code)
    }

    /// A parsed response, comparable across runs.
    package struct Summary: Equatable {
        /// The final status code.
        package var statusCode: Int
        /// The header fields as `name: value` lines, in order.
        package var headerLines: [String]
        /// The body bytes (still content-encoded).
        package var body: [UInt8]
        /// Whether the connection could carry another request.
        package var keepAlive: Bool
    }

    /// Parses `bytes` as the response to a `method` request, fed in pieces of `pieceSize` bytes (at least 1), with
    /// head and body limits.
    package static func parse(
        _ bytes: [UInt8],
        method: String = "GET",
        pieceSize: Int,
        maxHeadBytes: Int = 4096,
        maxBodyBytes: Int = 64 * 1024
    ) -> Outcome {
        replay(
            bytes, method: method, pieceSize: pieceSize,
            limits: HTTPParserLimits(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes),
            reserve: nil, pool: .shared
        ).outcome
    }

    /// ``parse(_:method:pieceSize:maxHeadBytes:maxBodyBytes:)`` reading bodies in place as a cleartext connection
    /// does: each piece goes first, as far as it fits, into the parser's
    /// ``HTTPResponseParser/directBodyTarget(reserve:)`` when it offers one (a body of announced length in memory
    /// from `pool`), which keeps back the last `reserve` bytes of the body for `feed`; the rest of the piece is fed
    /// as usual. Also returns how many bytes went in place, so a caller can tell the path was taken (a pool that
    /// pools nothing, as off Linux, offers no target).
    package static func parseReadingInPlace(
        _ bytes: [UInt8],
        method: String = "GET",
        pieceSize: Int,
        maxHeadBytes: Int = 4096,
        maxBodyBytes: Int,
        reserve: Int = 4096,
        pool: BodyBufferPool = .shared
    ) -> (outcome: Outcome, bytesReadInPlace: Int) {
        replay(
            bytes, method: method, pieceSize: pieceSize,
            limits: HTTPParserLimits(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes),
            reserve: max(1, reserve), pool: pool)
    }

    /// Feeds `bytes` in pieces; with a `reserve`, reads bodies in place first.
    private static func replay(
        _ bytes: [UInt8], method: String, pieceSize: Int, limits: HTTPParserLimits, reserve: Int?, pool: BodyBufferPool
    ) -> (outcome: Outcome, bytesReadInPlace: Int) {
        var parser = HTTPResponseParser(method: method, limits: limits, pool: pool)
        let step = max(1, pieceSize)
        var offset = 0
        var inPlace = 0
        do {
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                if let reserve, let target = parser.directBodyTarget(reserve: reserve) {
                    let count = min(target.count, end - offset)
                    bytes[offset..<offset + count].withUnsafeBytes { target.copyMemory(from: $0) }
                    parser.didReceiveBodyDirectly(count)
                    offset += count
                    inPlace += count
                    if offset == end { continue }
                }
                let fed = bytes[offset..<end].withUnsafeBytes { piece in
                    Result { () throws(NativeTransportError) -> Int? in try parser.feed(piece) }
                }
                let used = try fed.get()
                if let used { return (.response(summary(of: parser.response), used: offset + used), inPlace) }
                offset = end
            }
            guard try parser.finishAtEndOfStream() else { return (.nothing, inPlace) }
            return (.response(summary(of: parser.response), used: bytes.count), inPlace)
        } catch {
            return (.failed(error.code), inPlace)
        }
    }

    private static func summary(of response: ParsedResponse) -> Summary {
        Summary(
            statusCode: response.statusCode,
            headerLines: response.headers.fields.map { "\($0.name.rawName): \($0.value)" },
            body: Array(response.body),
            keepAlive: response.keepAlive
        )
    }
}
