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
    ///
    /// With `readsDirectly`, each piece goes first, as far as it fits, into the parser's
    /// ``HTTPResponseParser/directBodyTarget(reserve:)`` when it offers one (a pooled body of announced length, as a
    /// cleartext connection reads it in place), keeping back `directReadReserve` bytes as the connection does; the rest
    /// of the piece is fed as usual.
    package static func parse(
        _ bytes: [UInt8],
        method: String = "GET",
        pieceSize: Int,
        maxHeadBytes: Int = 4096,
        maxBodyBytes: Int = 64 * 1024,
        readsDirectly: Bool = false,
        directReadReserve: Int = 4096
    ) -> Outcome {
        var parser = HTTPResponseParser(
            method: method,
            limits: HTTPParserLimits(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes)
        )
        let step = max(1, pieceSize)
        var offset = 0
        do {
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                if readsDirectly, let target = parser.directBodyTarget(reserve: max(1, directReadReserve)) {
                    let count = min(target.count, end - offset)
                    bytes[offset..<offset + count].withUnsafeBytes { target.copyMemory(from: $0) }
                    parser.didReceiveBodyDirectly(count)
                    offset += count
                    if offset == end { continue }
                }
                let fed = bytes[offset..<end].withUnsafeBytes { piece in
                    Result { () throws(NativeTransportError) -> Int? in try parser.feed(piece) }
                }
                let used = try fed.get()
                if let used { return .response(summary(of: parser.response), used: offset + used) }
                offset = end
            }
            guard try parser.finishAtEndOfStream() else { return .nothing }
            return .response(summary(of: parser.response), used: bytes.count)
        } catch {
            return .failed(error.code)
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
