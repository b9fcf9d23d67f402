import Foundation
import Testing

@testable import BothamNetworking

@Suite("The Link header parses after RFC 8288, and garbage never crashes it", .timeLimit(.minutes(1)))
struct LinkHeaderTests {
    func response(_ links: String..., url: String = "https://api.example.com/repos/o/r/issues?page=1") -> HTTPResponse {
        let request = HTTPRequest(method: .get, url: URL(string: url) ?? URL(fileURLWithPath: "/"))
        var headers: HTTPHeaders = [:]
        for link in links { headers.add("Link", link) }
        return HTTPResponse(statusCode: 200, headers: headers, body: Data(), request: request)
    }

    @Test("a GitHub Link field yields each link with its URL and relation, and next is found by rel")
    func gitHubField() throws {
        let response = response(
            #"<https://api.example.com/repos/o/r/issues?page=2>; rel="next", "#
                + #"<https://api.example.com/repos/o/r/issues?page=5>; rel="last""#)
        #expect(
            response.links.map(\.url.absoluteString) == [
                "https://api.example.com/repos/o/r/issues?page=2", "https://api.example.com/repos/o/r/issues?page=5",
            ])
        #expect(response.links.map(\.relations) == [["next"], ["last"]])
        #expect(response.link(rel: "next")?.url.absoluteString == "https://api.example.com/repos/o/r/issues?page=2")
        #expect(response.link(rel: "prev") == nil)
    }

    @Test("relative targets resolve against the response's URL")
    func relativeTargets() throws {
        let response = response(#"</issues?page=3>; rel=next, <page4>; rel=last"#)
        #expect(
            response.links.map(\.url.absoluteString) == [
                "https://api.example.com/issues?page=3", "https://api.example.com/repos/o/r/page4",
            ])
    }

    @Test("rel holds several space-separated relation types, compared case-insensitively; the first rel wins")
    func relationTypes() throws {
        let response = response(#"<https://x.example/a>; REL="Next  Last"; rel="prev""#)
        #expect(response.links.first?.relations == ["next", "last"])
        #expect(response.link(rel: "NEXT")?.url.absoluteString == "https://x.example/a")
        #expect(response.link(rel: "last") != nil)
        #expect(response.link(rel: "prev") == nil)
    }

    @Test("the other parameters are kept by lowercased name, unquoted with escapes undone, the first of a name winning")
    func parameters() throws {
        let response = response(
            #"<https://x.example/a>; Title="a \"b\"; c, d"; type=text/html; title=second; hreflang"#)
        let link = try #require(response.links.first)
        #expect(link.parameters == ["title": #"a "b"; c, d"#, "type": "text/html", "hreflang": ""])
        #expect(link.relations.isEmpty)
        #expect(response.links.count == 1)
    }

    @Test("links of several fields and several links per field come in order; ; and , inside quotes do not split")
    func severalFields() throws {
        let response = response(
            #"<https://x.example/1>; rel="a"; title="x,<https://evil.example/>; rel=next", <https://x.example/2>; rel=b"#,
            #"<https://x.example/3>; rel=c"#)
        #expect(
            response.links.map(\.url.absoluteString) == [
                "https://x.example/1", "https://x.example/2", "https://x.example/3",
            ])
        #expect(response.link(rel: "next") == nil)
    }

    @Test("a malformed link ends its field's links, keeping the ones before it and the other fields")
    func malformed() throws {
        let response = response(#"<https://x.example/1>; rel=a, junk <https://x.example/2>; rel=b"#, "<unterminated")
        #expect(response.links.map(\.url.absoluteString) == ["https://x.example/1"])
        let junkAfterParameters = self.response(
            #"<https://x.example/1>; rel=a "junk, <https://evil.example/>; rel=next", <https://x.example/2>; rel=b"#)
        #expect(junkAfterParameters.links.map(\.url.absoluteString) == ["https://x.example/1", "https://x.example/2"])
        #expect(
            self.response("", ",", ";rel=next", "<>").links.map(\.url.absoluteString) == [
                "https://api.example.com/repos/o/r/issues?page=1"
            ])
    }

    @Test("random bytes and random fragments of Link syntax never crash the parser", arguments: 0..<4)
    func fuzz(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let pieces = [
            "<", ">", ";", ",", "\"", "\\", "=", " ", "rel", "next", "https://x.example/", "?a=b", "\u{0}", "é", "\t",
        ]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int(generator.next() % 24) {
                if generator.next() % 3 == 0 {
                    let bytes = (0..<Int(generator.next() % 6)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    text += String(decoding: bytes, as: UTF8.self)
                } else {
                    text += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
            let links = response(text).links
            #expect(links.count <= text.utf8.count)
            for link in links { #expect(link.url.scheme != nil) }
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
