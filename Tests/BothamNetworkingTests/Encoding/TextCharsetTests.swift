import BothamNetworking
import Foundation
import Testing

@Suite("Text responses use the charset of their Content-Type", .timeLimit(.minutes(1)))
struct TextCharsetTests {
    private func response(_ bytes: [UInt8], contentType: String? = nil) -> HTTPResponse {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com")
        var headers: HTTPHeaders = [:]
        if let contentType { headers[.contentType] = contentType }
        return HTTPResponse(statusCode: 200, headers: headers, body: Data(bytes), request: request)
    }

    @Test("UTF-8 is the default and a byte order mark is dropped")
    func utf8Default() throws {
        #expect(try response(Array("café".utf8)).string() == "café")
        #expect(try response([0xEF, 0xBB, 0xBF] + Array("hi".utf8), contentType: "text/plain").string() == "hi")
    }

    @Test("ISO-8859-1 and its latin1 alias map every byte")
    func latin1() throws {
        #expect(
            try response([0x63, 0x61, 0x66, 0xE9], contentType: "text/plain; charset=ISO-8859-1").string() == "café")
        #expect(try response([0xF1], contentType: "text/html;charset=\"latin1\"").string() == "ñ")
    }

    @Test("US-ASCII accepts 7-bit bytes only")
    func ascii() throws {
        #expect(try response(Array("plain".utf8), contentType: "text/plain; charset=us-ascii").string() == "plain")
        #expect(throws: APIClientError.self) {
            try response([0x41, 0xC3, 0xA9], contentType: "text/plain; charset=us-ascii").string()
        }
    }

    @Test("UTF-16 follows its byte order mark, is big-endian without one, and honours LE and BE labels")
    func utf16() throws {
        #expect(
            try response([0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00], contentType: "text/plain; charset=utf-16").string()
                == "hé")
        #expect(try response([0xFE, 0xFF, 0x00, 0x68], contentType: "text/plain; charset=utf-16").string() == "h")
        #expect(try response([0x00, 0x68, 0x00, 0x69], contentType: "text/plain; charset=UTF-16").string() == "hi")
        #expect(try response([0x68, 0x00, 0x69, 0x00], contentType: "text/plain; charset=utf-16le").string() == "hi")
        #expect(try response([0x00, 0x68, 0x00, 0x69], contentType: "text/plain; charset=utf-16be").string() == "hi")
        #expect(
            try response([0x3D, 0xD8, 0x00, 0xDE], contentType: "text/plain; charset=utf-16le").string() == "😀"
        )
    }

    @Test("invalid bytes are a parsing error that keeps the body")
    func invalidBytes() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xFE, 0x62]
        #expect {
            try response(bytes, contentType: "text/plain; charset=utf-8").string()
        } throws: { error in
            guard case .parsingError(let body, let underlying) = error as? APIClientError else { return false }
            return body == Data(bytes)
                && (underlying as? HTTPResponse.Charset.DecodingError)?.isUnsupportedCharset == false
        }
        #expect(throws: APIClientError.self) {
            try response([0x00, 0x68, 0x00], contentType: "text/plain; charset=utf-16be").string()
        }
        #expect(throws: APIClientError.self) {
            try response([0x00, 0xD8, 0x00, 0x68], contentType: "text/plain; charset=utf-16le").string()
        }
    }

    @Test("an unsupported charset is a parsing error naming it")
    func unsupported() {
        #expect {
            try response([0x61], contentType: "text/plain; charset=klingon").string()
        } throws: { error in
            guard case .parsingError(_, let underlying) = error as? APIClientError,
                let textError = underlying as? HTTPResponse.Charset.DecodingError
            else { return false }
            return textError.isUnsupportedCharset && textError.charset == "klingon"
        }
    }

    @Test("the charset parameter is found among others, ignoring case and quotes")
    func charsetParameter() {
        #expect(response([], contentType: "text/plain; format=flowed; CHARSET=\"UTF-8\"").charset == "UTF-8")
        #expect(response([], contentType: "application/json").charset == nil)
        #expect(response([]).charset == nil)
    }

    @Test("a quoted charset is read as RFC 9110 quoted strings are: quotes, escapes and semicolons inside them")
    func quotedCharset() throws {
        #expect(response([], contentType: #"text/plain; charset="utf-8""#).charset == "utf-8")
        #expect(try response(Array("café".utf8), contentType: #"text/plain; charset="utf-8""#).string() == "café")
        #expect(response([], contentType: #"text/plain;charset = "utf\-8" "#).charset == "utf-8")
        #expect(response([], contentType: #"text/plain; title="a;charset=latin1"; charset=utf-8"#).charset == "utf-8")
        #expect(response([], contentType: "text/plain; charset=; charset=latin1").charset == "latin1")
    }
}
