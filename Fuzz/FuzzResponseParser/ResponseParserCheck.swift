import BothamNetworkingNative
import FuzzSupport

/// Properties of NativeHTTPClient's HTTP/1.1 response parser, for any bytes a server could send. The first input
/// byte picks the request method (HEAD or GET) and how the rest is split into pieces, as reads from a socket would.
///
/// - it never traps, hangs or reads past the input;
/// - the outcome does not depend on how the bytes are split: one piece, one byte at a time and the chosen piece size
///   all agree (the parser is incremental);
/// - a response has a final status code (200–999), token header names, header values without CR, LF or NUL, and a
///   body within the limit (empty for HEAD, 204 and 304);
/// - it uses no more bytes than it was given; errors are only `malformedResponse`, `responseTooLarge` or
///   `closedByPeer` (the bytes ended mid-response);
/// - with a limit that admits pooled bodies (`BodyBufferPool`, from 256 KiB), reading a body of announced length
///   in place, as a cleartext connection does, ends exactly as feeding every byte does. Fuzz inputs are far shorter
///   than such a body, so here it is always cut short: the check covers the heads that reach the path, the reads in
///   place and how a cut-short body ends (`HTTPResponseParserTests.readInPlaceMatchesFeeding` covers whole bodies).
enum ResponseParserCheck {
    static let maxBodyBytes = 16 * 1024
    /// A body limit above `BodyBufferPool.minimumBytes`, so an announced length there takes a pooled body.
    static let pooledBodyLimit = 1 << 20

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let bytes = Array(input.dropFirst())
        let method = first & 0x80 == 0 ? "GET" : "HEAD"
        let pieceSize = Int(first & 0x7F) + 1
        let whole = parse(bytes, method: method, pieceSize: max(1, bytes.count))
        let chosen = parse(bytes, method: method, pieceSize: pieceSize)
        let single = parse(bytes, method: method, pieceSize: 1)
        fuzzExpect(whole == chosen, "pieces of \(pieceSize) bytes: \(chosen) but in one piece: \(whole)")
        fuzzExpect(whole == single, "byte by byte: \(single) but in one piece: \(whole)")
        let fed = HTTPResponseParserReplay.parse(
            bytes, method: method, pieceSize: pieceSize, maxBodyBytes: pooledBodyLimit)
        let readInPlace = HTTPResponseParserReplay.parseReadingInPlace(
            bytes, method: method, pieceSize: pieceSize, maxBodyBytes: pooledBodyLimit, reserve: 16
        ).outcome
        fuzzExpect(fed == readInPlace, "read in place: \(readInPlace) but fed: \(fed)")
        switch whole {
        case .response(let response, let used):
            fuzzExpect(used <= bytes.count, "used \(used) of \(bytes.count) bytes")
            check(response, method: method)
        case .nothing:
            fuzzExpect(bytes.isEmpty, "no response from \(bytes.count) bytes")
        case .failed(let code):
            let expected: [NativeTransportError.Code] = [.malformedResponse, .responseTooLarge, .closedByPeer]
            fuzzExpect(expected.contains(code), "error code \(code)")
        }
    }

    private static func parse(_ bytes: [UInt8], method: String, pieceSize: Int) -> HTTPResponseParserReplay.Outcome {
        HTTPResponseParserReplay.parse(bytes, method: method, pieceSize: pieceSize, maxBodyBytes: maxBodyBytes)
    }

    private static func check(_ response: HTTPResponseParserReplay.Summary, method: String) {
        fuzzExpect((200...999).contains(response.statusCode), "status \(response.statusCode)")
        for line in response.headerLines {
            let name = line.utf8.prefix { $0 != UInt8(ascii: ":") }
            fuzzExpect(!name.isEmpty && name.allSatisfy(isToken), "header name in \(Array(line.utf8))")
            fuzzExpect(!line.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "header \(Array(line.utf8))")
        }
        fuzzExpect(response.body.count <= maxBodyBytes, "body of \(response.body.count) bytes over the limit")
        if method == "HEAD" || response.statusCode == 204 || response.statusCode == 304 {
            fuzzExpect(response.body.isEmpty, "a body for \(method) \(response.statusCode)")
        }
    }

    private static func isToken(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
