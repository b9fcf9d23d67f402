import BothamNetworking
import Foundation
import Testing

@Suite("RedirectHop", .timeLimit(.minutes(1)))
struct RedirectHopTests {
    private let url = URL(string: "https://api.example.com/v1/items?x=1") ?? URL(fileURLWithPath: "/")

    @Test("Methods after each redirect status")
    func methods() {
        #expect(RedirectHop.methodAfterRedirect(.post, statusCode: 301) == (.get, false))
        #expect(RedirectHop.methodAfterRedirect(.post, statusCode: 302) == (.get, false))
        #expect(RedirectHop.methodAfterRedirect(.put, statusCode: 302) == (.put, true))
        #expect(RedirectHop.methodAfterRedirect(.delete, statusCode: 303) == (.get, false))
        #expect(RedirectHop.methodAfterRedirect(.head, statusCode: 303) == (.head, true))
        #expect(RedirectHop.methodAfterRedirect(.post, statusCode: 307) == (.post, true))
        #expect(RedirectHop.methodAfterRedirect(.patch, statusCode: 308) == (.patch, true))
    }

    @Test("A change of scheme, host or port crosses origins; default ports do not")
    func origins() throws {
        func crosses(_ target: String) throws -> Bool {
            RedirectHop.crossesOrigin(from: url, to: try #require(URL(string: target)))
        }
        #expect(try !crosses("https://API.example.com:443/other"))
        #expect(try crosses("http://api.example.com/v1"))
        #expect(try crosses("https://api.example.com:8443/v1"))
        #expect(try crosses("https://evil.example.com/v1"))
    }

    @Test("IPv6 literals compare without their brackets; a URL with no origin to share always crosses")
    func opaqueOrigins() throws {
        func parsed(_ text: String) throws -> URL { try #require(URL(string: text)) }
        let v6 = try parsed("http://[::1]:8080/a")
        #expect(!RedirectHop.crossesOrigin(from: v6, to: try parsed("http://[::1]:8080/b")))
        #expect(RedirectHop.crossesOrigin(from: v6, to: try parsed("http://[::2]:8080/a")))
        #expect(RedirectHop.crossesOrigin(from: try parsed("ftp://h/a"), to: url))
        #expect(RedirectHop.crossesOrigin(from: try parsed("/relative"), to: url))
        #expect(RedirectHop.crossesOrigin(from: nil, to: url))
    }

    @Test("Relative locations resolve against the current URL; non-HTTP and missing locations are not followed")
    func locations() throws {
        let request = HTTPRequest(method: .get, url: url, headers: [.authorization: "t"])
        let next = try #require(
            RedirectHop.redirect(after: request, sentTo: url, statusCode: 302, location: "../v2/y"))
        #expect(next.url.absoluteString == "https://api.example.com/v2/y")
        #expect(next.request.headers[.authorization] == "t")
        #expect(RedirectHop.redirect(after: request, sentTo: url, statusCode: 302, location: nil) == nil)
        #expect(RedirectHop.redirect(after: request, sentTo: url, statusCode: 302, location: "ftp://x/") == nil)
        #expect(RedirectHop.redirect(after: request, sentTo: url, statusCode: 200, location: "/a") == nil)
    }
}
