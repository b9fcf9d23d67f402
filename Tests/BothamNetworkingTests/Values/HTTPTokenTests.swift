import Testing

@testable import BothamNetworking

@Suite("HTTPToken", .timeLimit(.minutes(1)))
struct HTTPTokenTests {
    /// RFC 9110's `tchar`s, written out.
    static let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    @Test("exactly the 77 tchars are token characters")
    func tokenCharacters() {
        let accepted = (UInt8.min...UInt8.max).filter(HTTPToken.isTokenCharacter)
        #expect(Set(accepted) == Self.tchars)
        #expect(accepted.count == 77)
    }

    @Test(
        "a string's bytes and a buffer slice are tokens exactly when non-empty and all tchars",
        arguments: [
            ("GET", true), ("X-Request-ID", true), ("!#$%&'*+-.^_`|~", true), ("", false), ("Content Type", false),
            ("Name:", false), ("caf\u{E9}", false), ("tab\t", false), ("\u{0}", false), ("(comment)", false),
        ])
    func tokens(text: String, isToken: Bool) {
        #expect(HTTPToken.isToken(text.utf8) == isToken)
        // A slice that does not start at index 0, as the response parser's name slices of its line buffer may not.
        let line = Array("X".utf8) + Array(text.utf8) + Array(": v".utf8)
        #expect(HTTPToken.isToken(line[1..<(1 + text.utf8.count)]) == isToken)
        #expect(HTTPFieldName(text).isValid == isToken)
        #expect(HTTPMethod(text).isValidToken == isToken)
    }
}
