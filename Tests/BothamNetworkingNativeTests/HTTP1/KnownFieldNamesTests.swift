import BothamNetworking
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("KnownFieldNames", .timeLimit(.minutes(1)))
struct KnownFieldNamesTests {
    private func known(_ spelling: String) -> HTTPFieldName? {
        Array(spelling.utf8).withUnsafeBufferPointer { KnownFieldNames.name(spelled: $0) }
    }

    @Test("A common name spelled as usual or in lower case is prebuilt and keeps that spelling")
    func commonNames() throws {
        for spelling in ["Content-Type", "content-type", "ETag", "etag", "Content-Length", "server"] {
            let name = try #require(known(spelling), "\(spelling)")
            #expect(name.rawName == spelling)
            #expect(name.canonicalName == spelling.lowercased())
        }
    }

    @Test("Every prebuilt name is a valid token, so the parser need not check a known name's bytes")
    func allAreTokens() {
        #expect(KnownFieldNames.all.count == 72)
        for name in KnownFieldNames.all {
            #expect(name.isValid, "\(name)")
        }
    }

    @Test("An invalid name is still rejected, next to the prebuilt ones")
    func invalidNameNextToKnownOnes() {
        var parser = HTTPResponseParser(method: "GET", limits: HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 64))
        let wire = Array("HTTP/1.1 200 OK\r\nServer: x\r\nContent Type: a\r\n\r\n".utf8)
        let error = #expect(throws: NativeTransportError.self) { try wire.withUnsafeBytes { try parser.feed($0) } }
        #expect(error?.reason == "invalid header field name")
    }

    @Test("Other spellings and unknown names are not prebuilt; the parser builds them as before")
    func otherNames() throws {
        for spelling in ["CONTENT-TYPE", "Content-type", "X-Custom", "", "Content-Typ", "Content-Types"] {
            #expect(known(spelling) == nil, "\(spelling)")
        }
        var parser = HTTPResponseParser(method: "GET", limits: HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 64))
        let wire = Array("HTTP/1.1 200 OK\r\nCONTENT-TYPE: a\r\ncontent-length: 0\r\nX-Custom:  b \r\n\r\n".utf8)
        #expect(try wire.withUnsafeBytes { try parser.feed($0) } == wire.count)
        let fields = parser.response.headers.fields
        #expect(fields.map(\.name.rawName) == ["CONTENT-TYPE", "content-length", "X-Custom"])
        #expect(fields.map(\.name.canonicalName) == ["content-type", "content-length", "x-custom"])
        #expect(fields.map(\.value) == ["a", "0", "b"])
        #expect(parser.response.headers[.contentType] == "a")
    }
}
