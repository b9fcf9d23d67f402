import BothamNetworking
import Foundation
import Testing

/// Found while fuzzing the `WWW-Authenticate` parser: Swift's `String.replacingOccurrences(of:with:)` compares
/// grapheme clusters, so a `'` followed by a combining mark (`'\u{301}`) is one `Character` that does not match
/// `"'"`. `ShellQuoting.quote` escapes quotes that way, so such a quote was left unescaped and ended the
/// single-quoted argument: a body or header value could run commands when the cURL line is pasted into a shell.
@Suite("cURL quoting", .timeLimit(.minutes(1)))
struct CURLQuotingTests {
    /// Splits a command line the way a POSIX shell does for the constructs `cURLDescription` uses (spaces,
    /// single quotes, backslash escapes outside quotes), byte by byte.
    static func shellWords(_ command: String) -> [String] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var inWord = false
        var inQuotes = false
        var escaped = false
        for byte in command.utf8 {
            if inQuotes {
                if byte == UInt8(ascii: "'") { inQuotes = false } else { current.append(byte) }
            } else if escaped {
                current.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "'") {
                inQuotes = true
                inWord = true
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                inWord = true
            } else if byte == UInt8(ascii: " ") {
                if inWord { words.append(current) }
                current = []
                inWord = false
            } else {
                current.append(byte)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The `--data-binary` argument of the cURL command for a request carrying `text` as body and `X-Note` header,
    /// and whether the header argument is intact, as a shell reads them.
    private static func pastedArguments(for text: String) -> (body: String?, header: Bool) {
        let request = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/notes",
            headers: ["X-Note": text], body: .text(text))
        let words = shellWords(request.cURLDescription())
        let body = words.firstIndex(of: "--data-binary").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        return (body, words.contains("X-Note: \(text)"))
    }

    @Test(
        "every argument of the cURL command reads back exactly when pasted into a shell",
        arguments: ["plain text", "it's", "'; touch /tmp/pwned; echo '", "\u{301}x'y", "''''", #"\'\"#])
    func argumentsReadBack(_ text: String) {
        let pasted = Self.pastedArguments(for: text)
        #expect(pasted.body == text)
        #expect(pasted.header)
    }

    // A regression test for the command injection fuzzing found: `ShellQuoting.quote` used to compare Characters.
    @Test(
        "a quote followed by a combining mark cannot end a cURL argument (no command injection on paste)",
        arguments: ["'\u{301}; touch /tmp/pwned; echo '\u{301}", "\u{301}'\u{301}'", "a'\u{8DC}b"])
    func quoteWithCombiningMarkReadsBack(_ text: String) {
        let pasted = Self.pastedArguments(for: text)
        #expect(pasted.body == text)
        #expect(pasted.header)
    }
}
