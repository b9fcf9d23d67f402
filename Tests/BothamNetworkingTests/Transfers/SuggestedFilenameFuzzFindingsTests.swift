import BothamNetworking
import Foundation
import Testing

/// Inputs `Fuzz/FuzzContentDisposition` found, kept as regressions: names were read character by character, so a
/// separator, dot or quote followed by a combining mark was not seen, and leading dots that trimming exposed stayed.
@Suite("Suggested file names: fuzz findings", .timeLimit(.minutes(1)))
struct SuggestedFilenameFuzzFindingsTests {
    @Test(
        "separators, leading dots and quotes count even when a combining mark follows them",
        arguments: [
            // The fuzzer's input: white space and control characters between dots.
            ("attachment; filename=\"\u{1}\u{7F} ..  .. \u{202E}txt.exe\"", "txt.exe"),
            ("attachment; filename=\"../\u{301}../\u{301}etc\"", "\u{301}etc"),
            ("attachment; filename=\".\u{301}bashrc\"", "\u{301}bashrc"),
            ("attachment; filename=\"\u{301}a\\\"\u{301}b\"", "\u{301}a\"\u{301}b"),
            ("attachment; filename=\"a\";\u{301} size=1", "a"),
            ("attachment; filename=\u{301}x.txt", "\u{301}x.txt"),
        ])
    func combiningMarks(header: String, expected: String) {
        let name = SuggestedFilename.from(contentDisposition: header, url: nil)
        #expect(Array(name.unicodeScalars) == Array(expected.unicodeScalars), "\(Array(name.unicodeScalars))")
        #expect(!name.unicodeScalars.contains { $0 == "/" || $0 == "\\" })
        #expect(name.unicodeScalars.first != ".")
    }

    @Test("cutting a long name to 255 bytes never leaves white space at its end")
    func cutLeavesNoTrailingSpace() throws {
        let name = try #require(SuggestedFilename.sanitized(String(repeating: "a", count: 254) + " \u{E9}"))
        #expect(name == String(repeating: "a", count: 254))
        #expect(SuggestedFilename.sanitized(name) == name)
    }
}
