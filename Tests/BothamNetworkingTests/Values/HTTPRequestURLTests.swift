import BothamNetworking
import Foundation
import Testing

@Suite("HTTPRequest URLs", .timeLimit(.minutes(1)))
struct HTTPRequestURLTests {
    private func url(_ base: String, _ path: String, _ parameters: HTTPParameters = [:]) -> String? {
        HTTPRequest(method: .get, baseEndpoint: base, path: path, parameters: parameters).url?.absoluteString
    }

    @Test(
        "Base endpoint and path are joined with exactly one slash",
        arguments: [
            ("https://api.example.com", "/issues", "https://api.example.com/issues"),
            ("https://api.example.com/", "/issues", "https://api.example.com/issues"),
            ("https://api.example.com/", "issues", "https://api.example.com/issues"),
            ("https://api.example.com", "issues", "https://api.example.com/issues"),
            ("https://api.example.com/v1", "/issues/", "https://api.example.com/v1/issues/"),
            ("https://api.example.com/v1/", "//issues", "https://api.example.com/v1/issues"),
            ("https://api.example.com/v1", "", "https://api.example.com/v1"),
            ("https://api.example.com:8443/v1", "/x", "https://api.example.com:8443/v1/x"),
            ("https://api.example.com/v1/", "///", "https://api.example.com/v1/"),
            ("https://api.example.com/v1/", "/é", "https://api.example.com/v1/%C3%A9"),
            ("https://api.example.com/é/", "/x", "https://api.example.com/%C3%A9/x"),
            // A slash followed by a combining mark is one Character, not a slash: it stays.
            ("https://api.example.com/v1", "/\u{301}x", "https://api.example.com/v1//%CC%81x"),
        ]
    )
    func joinsBaseAndPath(base: String, path: String, expected: String) {
        #expect(url(base, path) == expected)
    }

    @Test("A query already in the path is kept and parameters are appended after it")
    func keepsExistingQuery() {
        #expect(url("https://h.example", "/search?q=swift", ["page": "2"]) == "https://h.example/search?q=swift&page=2")
        #expect(url("https://h.example/api?key=1", "/users", ["a": "b"]) == "https://h.example/api/users?key=1&a=b")
    }

    @Test("Parameters keep their order and repeated names")
    func parametersKeepOrderAndRepeats() {
        let parameters = HTTPParameters([.init(name: "tag", value: "a"), .init(name: "tag", value: "b")])
        #expect(url("https://h.example", "/x", parameters) == "https://h.example/x?tag=a&tag=b")
        #expect(url("https://h.example", "/x", ["z": "1", "a": "2"]) == "https://h.example/x?z=1&a=2")
    }

    @Test("Reserved characters inside values are escaped so they cannot change the query")
    func escapesReservedCharacters() {
        let result = url("https://h.example", "/x", ["q": "a+b&c=d#e f", "k&y": "ü?/"])
        #expect(result == "https://h.example/x?q=a%2Bb%26c%3Dd%23e%20f&k%26y=%C3%BC?/")
    }

    @Test("An empty parameter value is sent as name=")
    func emptyValueIsSentWithEquals() {
        #expect(url("https://h.example", "/x", ["a": ""]) == "https://h.example/x?a=")
    }

    @Test("Without parameters there is no trailing question mark")
    func noTrailingQuestionMark() {
        #expect(url("https://h.example", "/x") == "https://h.example/x")
    }

    @Test("Spaces, Unicode and lone percent signs in paths are escaped; valid escapes are kept")
    func escapesPaths() {
        #expect(url("https://h.example", "/a b/ñ") == "https://h.example/a%20b/%C3%B1")
        #expect(url("https://h.example", "/100%/a%20b") == "https://h.example/100%25/a%20b")
    }

    @Test("Every ASCII character a path may hold stays as written, and every other one is percent-encoded")
    func pathCharacters() {
        // RFC 3986 §3.3: unreserved, sub-delimiters, ":", "@" and "/" (`%` is covered above; `?` and `#` end the path).
        let keptPunctuation = Set("-._~!$&'()*+,;=:@/".utf8)
        for byte in UInt8(0x20)...UInt8(0x7E) where !"%?#".utf8.contains(byte) {
            let character = String(decoding: [byte], as: UTF8.self)
            let expected =
                keptPunctuation.contains(byte) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x30 && byte <= 0x39)
                ? character : "%" + String(byte, radix: 16, uppercase: true)
            #expect(url("https://h.example", "/a\(character)b") == "https://h.example/a\(expected)b", "byte \(byte)")
        }
        // A query written in the path may also hold "?" unescaped; the other characters follow the path's rules.
        #expect(url("https://h.example", "/p?a=b?c/d&e=[f]") == "https://h.example/p?a=b?c/d&e=%5Bf%5D")
    }

    @Test("A fragment in the path stays after the query")
    func fragmentStaysLast() {
        #expect(url("https://h.example", "/doc#top", ["a": "1"]) == "https://h.example/doc?a=1#top")
    }

    @Test("A path splits at its first ? and first # (a ? after the # is the fragment's), by Characters")
    func pathQueryAndFragmentSplit() {
        #expect(url("https://h.example", "/a?b#c") == "https://h.example/a?b#c")
        #expect(url("https://h.example", "/a#b?c", ["k": "v"]) == "https://h.example/a?k=v#b?c")
        #expect(url("https://h.example", "/a?", ["k": "v"]) == "https://h.example/a?k=v")
        #expect(url("https://h.example/base/", "//x#") == "https://h.example/base/x#")
        // A # followed by a combining mark is one Character, not a delimiter: it is escaped into the path.
        #expect(url("https://h.example", "/a#\u{301}b") == "https://h.example/a%23%CC%81b")
    }

    @Test("An absolute http(s) URL as the path is used as it is")
    func absolutePathIsUsedAsIs() {
        #expect(url("https://h.example", "https://other.example/page?n=2") == "https://other.example/page?n=2")
        #expect(url("https://h.example", "HTTP://other.example/a") == "HTTP://other.example/a")
        #expect(url("https://h.example", "hTtPs://other.example/b") == "hTtPs://other.example/b")
        // Not absolute: too short, another scheme, or the scheme not at the start.
        #expect(url("https://h.example", "http:/x") == "https://h.example/http:/x")
        #expect(url("https://h.example", "/https://x") == "https://h.example/https://x")
    }

    @Test("A non-http scheme is an unsupportedURLScheme error", arguments: ["ftp://h.example", "file:///etc/passwd"])
    func rejectsOtherSchemes(base: String) {
        #expect(throws: APIClientError.self) { try HTTPRequest(method: .get, baseEndpoint: base).resolvedURL() }
        do {
            _ = try HTTPRequest(method: .get, baseEndpoint: base).resolvedURL()
        } catch {
            guard case .unsupportedURLScheme = error else {
                Issue.record("expected unsupportedURLScheme, got \(error)")
                return
            }
        }
    }

    @Test("The scheme is matched case-insensitively")
    func schemeIsCaseInsensitive() {
        #expect(url("HTTPS://h.example", "/x") != nil)
    }

    @Test(
        "Malformed or relative base endpoints are invalid requests",
        arguments: ["", "api.example.com", "/relative/path", "https://", "https:// spaced.example", "https://h e/x"]
    )
    func rejectsMalformedEndpoints(base: String) {
        do {
            _ = try HTTPRequest(method: .get, baseEndpoint: base, path: "/x").resolvedURL()
            Issue.record("expected an error for \(base)")
        } catch {
            guard case .invalidRequest = error else {
                Issue.record("expected invalidRequest for \(base), got \(error)")
                return
            }
        }
    }
}
