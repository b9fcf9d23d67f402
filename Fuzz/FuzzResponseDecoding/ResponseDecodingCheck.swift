import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of the response-decoding helpers, for any body and any `Content-Type`:
///
/// - `HTTPResponse.string(defaultCharset:)` returns text that re-encodes to the body (BOM aside) or throws
///   `parsingError` keeping the body; ISO-8859-1 never fails; it agrees with `HTTPResponse.Charset.decode`;
/// - `JSONValue(jsonData:)` either fails or gives a value that `encoded()` writes back as JSON reading as the same
///   value;
/// - `decoded(as:)` either decodes or throws `parsingError` keeping the body;
/// - `DebugText.body` never traps, holds no raw control character and stays bounded by its limit.
enum ResponseDecodingCheck {
    private static let contentTypes = [
        nil, "text/plain", "text/plain; charset=utf-8", "text/html;charset=\"ISO-8859-1\"",
        "text/plain; charset=latin1",
        "text/plain; charset=us-ascii", "text/plain; charset=utf-16", "text/plain; charset=UTF-16LE",
        "text/plain; charset=utf-16be", "text/plain; charset=ebcdic-cp-us", "application/json",
    ]
    private static let defaultCharsets: [HTTPResponse.Charset] = [
        .utf8, .usASCII, .isoLatin1, .utf16, .utf16LittleEndian, .utf16BigEndian,
    ]

    /// A small Decodable shape, so `decoded(as:)` meets type mismatches as well as malformed JSON.
    private struct Shape: Decodable {
        var id: Int
        var name: String?
        var tags: [String]
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let selector = input.choice(contentTypes.count + 1)
        let contentType =
            selector < contentTypes.count
            ? contentTypes[selector] : "text/plain; charset=" + input.string(maxLength: 16)
        let defaultCharset = defaultCharsets[input.choice(defaultCharsets.count)]
        let limit = input.choice(80) - 4
        let body = Data(input.rest())
        guard let url = URL(string: "https://fuzz.example/body") else { return }
        let headers: HTTPHeaders = contentType.map { [.contentType: $0] } ?? [:]
        let response = HTTPResponse(
            statusCode: 200, headers: headers, body: body, request: HTTPRequest(method: .get, url: url))
        checkString(response, defaultCharset: defaultCharset)
        checkJSON(body)
        checkDecoded(response)
        checkDebugText(body, limit: limit)
    }

    private static func checkString(_ response: HTTPResponse, defaultCharset: HTTPResponse.Charset) {
        let charset = response.charset.map { HTTPResponse.Charset(label: $0) } ?? defaultCharset
        let text: String
        do {
            text = try response.string(defaultCharset: defaultCharset)
        } catch {
            guard case .parsingError(let kept, let underlying) = error else {
                fuzzExpect(false, "string() threw \(error)")
                return
            }
            fuzzExpect(kept == response.body, "parsingError lost the body")
            fuzzExpect(underlying is HTTPResponse.Charset.DecodingError, "underlying \(underlying)")
            fuzzExpect(charset != .isoLatin1, "ISO-8859-1 refused \(Array(response.body))")
            if let charset { fuzzExpect(charset.decode(response.body) == nil, "string() and decode disagree") }
            return
        }
        guard let charset else {
            fuzzExpect(false, "unsupported charset \(String(describing: response.charset)) decoded")
            return
        }
        fuzzExpect(charset.decode(response.body) == text, "string() and decode disagree")
        let body = Array(response.body)
        switch charset {
        case .utf8:
            let expected = body.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(body.dropFirst(3)) : body
            fuzzExpect(Array(text.utf8) == expected, "UTF-8 text does not re-encode to the body")
        case .usASCII:
            fuzzExpect(Array(text.utf8) == body, "ASCII text does not re-encode to the body")
        case .isoLatin1:
            fuzzExpect(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } == body, "Latin-1 mismatch")
            fuzzExpect(text.unicodeScalars.allSatisfy { $0.value < 0x100 }, "Latin-1 scalar above 0xFF")
        case .utf16, .utf16LittleEndian, .utf16BigEndian:
            let littleEndianMark = body.starts(with: [0xFF, 0xFE])
            let bigEndianMark = body.starts(with: [0xFE, 0xFF])
            let hasMark =
                charset == .utf16
                ? littleEndianMark || bigEndianMark
                : charset == .utf16LittleEndian ? littleEndianMark : bigEndianMark
            fuzzExpect(text.utf16.count * 2 == body.count - (hasMark ? 2 : 0), "UTF-16 length mismatch")
        }
    }

    private static func checkJSON(_ body: Data) {
        guard let value = JSONValue(jsonData: body) else { return }
        _ = value.description
        let encoded: Data
        do {
            encoded = try value.encoded()
        } catch {
            fuzzExpect(false, "parsed JSON \(Array(body)) cannot be written back: \(error)")
            return
        }
        let reread = JSONValue(jsonData: encoded)
        fuzzExpect(reread == value, "JSON round trip changed \(value) into \(String(describing: reread))")
    }

    private static func checkDecoded(_ response: HTTPResponse) {
        expectDecodesOrKeepsBody(response, as: JSONValue.self)
        expectDecodesOrKeepsBody(response, as: [String: JSONValue].self)
        expectDecodesOrKeepsBody(response, as: Shape.self)
        expectDecodesOrKeepsBody(response, as: Empty.self)
        expectDecodesOrKeepsBody(response, as: Shape?.self)
    }

    private static func expectDecodesOrKeepsBody<Value: Decodable>(_ response: HTTPResponse, as type: Value.Type) {
        do {
            _ = try response.decoded(as: type)
        } catch {
            guard case .parsingError(let kept, _) = error else {
                fuzzExpect(false, "decoded(as: \(type)) threw \(error)")
                return
            }
            fuzzExpect(kept == response.body, "parsingError lost the body")
        }
    }

    private static func checkDebugText(_ body: Data, limit: Int) {
        let text = DebugText.body(body, limit: limit)
        fuzzExpect(
            !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "raw control character in \(text)")
        fuzzExpect(text.utf8.count <= 8 * max(0, limit) + 200, "\(text.utf8.count) bytes for limit \(limit)")
    }
}
