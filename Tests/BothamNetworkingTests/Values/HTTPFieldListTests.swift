import Testing

@testable import BothamNetworking

@Suite("HTTP field lists and OWS trimming", .timeLimit(.minutes(1)))
struct HTTPFieldListTests {
    @Test("list elements are trimmed of spaces and tabs, lower-cased, and empty ones skipped")
    func elements() {
        #expect(HTTPFieldList.elements(of: " Keep-Alive ,\tUpgrade, , close\t") == ["keep-alive", "upgrade", "close"])
        #expect(HTTPFieldList.elements(of: " , ").isEmpty)
    }

    @Test("contains finds an element as elements(of:) lists it, whatever its case and the spaces around it")
    func contains() {
        let values = [
            " Keep-Alive ,\tUpgrade, , close\t", "CLOSE", "closed", "close-ish, keep", "", ",", " , close",
            "keep-alive,", "x,close,y", "clos", "\u{e9}close", "Keep-Alive",
        ]
        for value in values {
            for element in ["close", "keep-alive", "upgrade"] as [StaticString] {
                let listed = HTTPFieldList.elements(of: value).contains(element.description)
                #expect(HTTPFieldList.contains(element, in: value) == listed, "\(element) in \(value.debugDescription)")
            }
        }
        #expect(HTTPFieldList.contains("close", in: " Keep-Alive ,\tUpgrade, , close\t"))
        #expect(!HTTPFieldList.contains("close", in: "closed"))
    }

    @Test("trimming removes spaces and tabs at both ends only, of bytes and of text alike")
    func trimming() {
        let text: Substring = " \t a b\t \t"
        #expect(HTTPFieldList.trimmingWhitespace(text) == "a b")
        #expect(String(decoding: HTTPFieldList.trimmingWhitespace(text.utf8), as: UTF8.self) == "a b")
        #expect(HTTPFieldList.trimmingWhitespace(" \t ").isEmpty)
        #expect(HTTPFieldList.trimmingWhitespace("é, ü") == "é, ü")
    }
}
