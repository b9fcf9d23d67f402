import BothamNetworking
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("Origin parsing", .timeLimit(.minutes(1)))
struct RequestTargetTests {
    @Test(
        "The one-scan parse agrees with Foundation's URL parsing",
        arguments: [
            "http://127.0.0.1:8080/small.json", "https://API.Example.com/v1/items?x=1&y=%20#frag",
            "http://localhost", "http://localhost?q=1", "https://example.com:443/", "http://a.b:80/p/a%2Fb;c?d",
            "http://user:pw@example.com/", "http://[::1]:8080/x", "https://xn--bcher-kva.example/",
        ])
    func agreesWithFoundation(text: String) throws {
        let url = try #require(URL(string: text))
        let parsed = try Origin.parse(url)
        let expected = try Origin(url: url)
        #expect(parsed.origin == expected)
        #expect(parsed.target == Origin.requestTarget(of: url))
    }
}
