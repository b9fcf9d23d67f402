import BothamNetworkingTesting
import Foundation
import FuzzSupport

/// Properties of MockWebServer's HTTP/1.1 request parser, for any bytes a client could send:
///
/// - it never traps, hangs or reads past the input; at most one rejection or end, always last;
/// - a parsed request has a token method, a visible-ASCII target, an `HTTP/1.0` or `HTTP/1.1` version, token
///   header names and header values without CR, LF or NUL;
/// - a body never exceeds the limit, and a chunked body is exactly the sum of its chunks;
/// - rejections are 4xx or 505 answers.
enum RequestParserCheck {
    static let maxBodyBytes = 8 * 1024

    static func run(_ bytes: [UInt8]) {
        let outcomes: [HTTPRequestParserReplay.Outcome]
        do {
            outcomes = try HTTPRequestParserReplay.parse(bytes, maxHeaderBytes: 4 * 1024, maxBodyBytes: maxBodyBytes)
        } catch {
            fuzzExpect(false, "socket pair failed: \(error)")
            return
        }
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .request(let request):
                check(request, sequenceNumber: index)
            case .rejected(let status, let message):
                fuzzExpect(index == outcomes.count - 1, "parsing went on after a rejection")
                fuzzExpect((400..<500).contains(status) || status == 505, "rejected with \(status): \(message)")
            case .connectionEnded:
                fuzzExpect(index == outcomes.count - 1, "parsing went on after the end")
            }
        }
    }

    private static func check(_ request: RecordedRequest, sequenceNumber: Int) {
        fuzzExpect(request.sequenceNumber == sequenceNumber, "sequence number \(request.sequenceNumber)")
        let method = request.method.rawValue
        fuzzExpect(!method.isEmpty && method.utf8.allSatisfy(isToken), "method \(method)")
        fuzzExpect(
            !request.target.isEmpty && request.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
            "target \(Array(request.target.utf8))")
        fuzzExpect(request.version == "HTTP/1.0" || request.version == "HTTP/1.1", "version \(request.version)")
        for field in request.headers.fields + request.trailers.fields {
            let name = field.name.rawName
            fuzzExpect(!name.isEmpty && name.utf8.allSatisfy(isToken), "header name \(name)")
            fuzzExpect(
                !field.value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" },
                "header value \(Array(field.value.utf8))")
        }
        fuzzExpect(request.body.count <= maxBodyBytes, "body of \(request.body.count) bytes over the limit")
        if !request.chunkSizes.isEmpty {
            fuzzExpect(request.chunkSizes.reduce(0, +) == request.body.count, "chunk sizes do not add up")
        }
        fuzzExpect(request.path.hasPrefix("/") || !request.target.hasPrefix("/"), "path \(request.path)")
        _ = request.queryItems
        _ = request.bodyAsString
        _ = request.description
    }

    private static func isToken(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
