import BothamNetworking
import Foundation
import Testing

@Suite("HTTPHeaders", .timeLimit(.minutes(1)))
struct HTTPHeadersTests {
    @Test("Lookups ignore case")
    func lookupsIgnoreCase() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers[.contentType] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
    }

    @Test("Names compare as strings do: ASCII names of other lengths differ, canonically equal Unicode names match")
    func nameEquality() {
        #expect(HTTPFieldName("X-Id") != HTTPFieldName("X-Ids"))
        #expect(HTTPFieldName("X-Id") == HTTPFieldName("x-ID"))
        // "é" precomposed (2 UTF-8 bytes) and "e" + a combining acute accent (3 bytes) are the same string.
        let precomposed = HTTPFieldName("caf\u{E9}")
        let decomposed = HTTPFieldName("cafe\u{301}")
        #expect(precomposed == decomposed)
        #expect(precomposed.hashValue == decomposed.hashValue)
        #expect(HTTPFieldName("cafe") != decomposed)
    }

    @Test("Fields keep their order and repeats")
    func keepsOrderAndRepeats() {
        var headers: HTTPHeaders = ["B": "1"]
        headers.add("A", "2")
        headers.add("b", "3")
        #expect(headers.fields.map(\.name.rawName) == ["B", "A", "b"])
        #expect(headers.values(for: "B") == ["1", "3"])
        #expect(headers.dictionary["B"] == "1, 3")
    }

    @Test("Setting a name replaces every field of that name at the first position")
    func settingReplaces() {
        var headers: HTTPHeaders = ["Accept": "a", "X": "x", "accept": "b"]
        headers[.accept] = "c"
        #expect(headers.fields.map(\.value) == ["c", "x"])
        headers[.accept] = nil
        #expect(headers.fields.map(\.value) == ["x"])
    }

    @Test("Merging replaces the names present in the other headers and keeps the rest")
    func mergingReplacesNames() {
        let merged = HTTPHeaders(["Accept": "a", "X": "x"]).merging(["accept": "b"])
        #expect(merged["Accept"] == "b")
        #expect(merged["X"] == "x")
        #expect(merged.values(for: .accept) == ["b"])
    }

    @Test(
        "Header injection attempts are reported as invalid",
        arguments: [
            HTTPHeaders(["X-Evil": "a\r\nInjected: yes"]),
            HTTPHeaders(["X-Evil": "a\nb"]),
            HTTPHeaders(["X-Evil": "nul\0byte"]),
            HTTPHeaders(["Bad Name": "v"]),
            HTTPHeaders(["Bad:Name": "v"]),
            HTTPHeaders(["": "v"]),
            HTTPHeaders(["X\r\nInjected": "v"]),
        ]
    )
    func injectionIsInvalid(headers: HTTPHeaders) {
        #expect(headers.validationFailure != nil)
    }

    @Test("Tabs, spaces and non-ASCII text are valid header values")
    func ordinaryValuesAreValid() {
        #expect(HTTPHeaders(["X-Text": "a\tb c ünïcode"]).validationFailure == nil)
    }

    @Test("Descriptions escape control characters so they cannot forge log lines")
    func descriptionEscapesControlCharacters() {
        let headers = HTTPHeaders(["X-Evil": "a\r\nInjected: yes"])
        #expect(!headers.description.contains("\n"))
        #expect(headers.description.contains("\\r\\n"))
    }
}
