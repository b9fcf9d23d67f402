import Foundation
import Testing

@testable import BothamNetworking

@Suite("Media types and their parameters", .timeLimit(.minutes(1)))
struct MediaTypeTests {
    @Test("the essence is lower-cased type/subtype; parameters keep their order and the case of their values")
    func essenceAndParameters() {
        let type = MediaType(#"Multipart/Form-Data; Boundary="a b;c"; charset=UTF-8"#)
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameter("boundary") == "a b;c")
        #expect(type.parameter("CHARSET") == "UTF-8")
        #expect(type.parameters.map(\.name) == ["boundary", "charset"])
        #expect(MediaType.isJSON(MediaType("application/problem+json").essence))
        #expect(!MediaType.isJSON(MediaType("text/json-ish").essence))
        #expect(MediaType.essence(" Text/Plain ; charset=x") == "text/plain")
    }

    @Test("quoted-pairs are undone as RFC 9110 says; Content-Disposition keeps unknown escapes for Windows paths")
    func quotedPairs() {
        let value = #"x; a="q\"uote\\d"; b="C:\files\a.txt"; c="unterminated"#
        let strict = FieldParameters.parse(value).parameters.map(\.value)
        #expect(strict == [#"q"uote\d"#, "C:filesa.txt", "unterminated"])
        let lenient = FieldParameters.parse(value, escapes: .keepingUnknown).parameters.map(\.value)
        #expect(lenient == [#"q"uote\d"#, #"C:\files\a.txt"#, "unterminated"])
    }

    @Test("parts without a name and value are skipped, and what follows a closing quote is dropped")
    func junk() {
        let parsed = FieldParameters.parse(#"text/plain;; junk ; a="1"tail; =; b = 2 "#)
        #expect(parsed.head == "text/plain")
        #expect(
            parsed.parameters == [
                .init(name: "a", value: "1"), .init(name: "", value: ""), .init(name: "b", value: "2"),
            ])
    }
}
