import BothamNetworking
import Foundation
import Testing

@Suite("Suggested file names", .timeLimit(.minutes(1)))
struct SuggestedFilenameTests {
    static let downloadURL = URL(string: "https://example.com/files/report%20final.pdf?token=1")

    @Test(
        "Content-Disposition names are taken, decoded and made safe",
        arguments: [
            (#"attachment; filename="report.pdf""#, "report.pdf"),
            ("attachment; filename=plain.txt", "plain.txt"),
            (#"attachment; filename="a;b.txt"; size=3"#, "a;b.txt"),
            (#"attachment; filename="fallback.txt"; filename*=UTF-8''f%C3%B6%C3%B6.txt"#, "föö.txt"),
            (#"attachment; filename*=iso-8859-1'en'%E9t%E9.txt"#, "été.txt"),
            (#"attachment; filename="../../etc/passwd""#, "passwd"),
            (#"attachment; filename="/etc/shadow""#, "shadow"),
            (#"attachment; filename="..\..\windows\system.ini""#, "system.ini"),
            ("attachment; filename*=UTF-8''..%2F..%2Fx", "x"),
            ("attachment; filename*=UTF-8''%2Fabsolute%2Fpath.bin", "path.bin"),
            ("attachment; filename*=UTF-8''evil%00.txt", "evil.txt"),
            (#"attachment; filename=".bashrc""#, "bashrc"),
            (#"attachment; filename="\"quoted\".txt""#, "\"quoted\".txt"),
        ])
    func contentDisposition(header: String, expected: String) {
        #expect(SuggestedFilename.from(contentDisposition: header, url: Self.downloadURL) == expected)
    }

    @Test(
        "names with nothing safe left fall back to the URL, then to download",
        arguments: [
            #"attachment; filename="..""#, #"attachment; filename="../""#, #"attachment; filename="""#,
            "attachment; filename*=UTF-8''%00%00", "attachment; filename*=UTF-8''%ZZ", "inline",
        ])
    func fallbacks(header: String) {
        #expect(SuggestedFilename.from(contentDisposition: header, url: Self.downloadURL) == "report final.pdf")
        #expect(
            SuggestedFilename.from(contentDisposition: header, url: URL(string: "https://example.com/")) == "download")
        #expect(SuggestedFilename.from(contentDisposition: header, url: nil) == "download")
    }

    @Test("a NUL byte inside a plain name is removed, never truncating into a path")
    func nulInPlainName() {
        #expect(SuggestedFilename.sanitized("a\u{0}b/../c\u{0}d") == "cd")
        #expect(SuggestedFilename.sanitized("..\u{0}..") == nil)
    }

    @Test("a very long name is cut to 255 bytes of UTF-8")
    func longName() throws {
        let name = try #require(SuggestedFilename.sanitized(String(repeating: "é", count: 300)))
        #expect(name.utf8.count <= 255)
        #expect(name.hasPrefix("éé"))
    }

    @Test("a response exposes its suggested file name")
    func responseProperty() {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://example.com/dl/archive.zip")
        let named = HTTPResponse(
            statusCode: 200,
            headers: [.contentDisposition: #"attachment; filename="../x.zip""#],
            request: request
        )
        #expect(named.suggestedFilename == "x.zip")
        #expect(HTTPResponse(statusCode: 200, request: request).suggestedFilename == "archive.zip")
    }
}
