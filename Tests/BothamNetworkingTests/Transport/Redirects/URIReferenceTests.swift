import BothamNetworking
import Foundation
import Testing

@Suite("Location values resolve as RFC 3986 §5 says", .timeLimit(.minutes(1)))
struct URIReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    @Test(
        "the normal examples of RFC 3986 §5.4.1",
        arguments: [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ])
    func normalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test(
        "the abnormal examples of RFC 3986 §5.4.2",
        arguments: [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
        ])
    func abnormalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test("redirect targets: a query-only Location keeps the path, a fragment-only one keeps path and query")
    func redirectTargets() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/items?page=1"))
        #expect(
            RedirectHop.target(of: "?page=2", relativeTo: url)?.absoluteString
                == "https://api.example.com/v1/items?page=2")
        #expect(
            RedirectHop.target(of: "#top", relativeTo: url)?.absoluteString
                == "https://api.example.com/v1/items?page=1#top")
        #expect(
            RedirectHop.target(of: "//cdn.example.com/x", relativeTo: url)?.absoluteString
                == "https://cdn.example.com/x")
        #expect(
            RedirectHop.target(of: "../v2/./items", relativeTo: url)?.absoluteString
                == "https://api.example.com/v2/items")
        #expect(RedirectHop.target(of: "ftp://files.example.com/x", relativeTo: url) == nil)
    }
}
