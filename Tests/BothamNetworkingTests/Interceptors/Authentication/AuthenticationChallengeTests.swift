import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@Suite("WWW-Authenticate parsing", .timeLimit(.minutes(1)))
struct AuthenticationChallengeTests {
    @Test("A Basic challenge gives its realm; scheme and parameter names ignore case")
    func basicRealm() {
        let challenges = AuthenticationChallenge.parse(#"bAsIc ReAlM="GitHub API", charset="UTF-8""#)
        #expect(challenges.count == 1)
        #expect(challenges[0].hasScheme("Basic"))
        #expect(challenges[0].realm == "GitHub API")
        #expect(challenges[0]["CHARSET"] == "UTF-8")
    }

    @Test("Quoted strings keep escaped quotes, backslashes and commas")
    func quotedStrings() {
        let challenges = AuthenticationChallenge.parse(#"Basic realm="a \"quoted\", comma\\ realm", x=y"#)
        #expect(challenges.count == 1)
        #expect(challenges[0].realm == #"a "quoted", comma\ realm"#)
        #expect(challenges[0]["x"] == "y")
    }

    @Test("RFC 9110's example with two challenges in one header is split correctly")
    func severalChallengesInOneHeader() {
        let value = #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#
        let challenges = AuthenticationChallenge.parse(value)
        #expect(challenges.map(\.scheme) == ["Newauth", "Basic"])
        #expect(challenges[0].realm == "apps")
        #expect(challenges[0]["type"] == "1")
        #expect(challenges[0]["title"] == #"Login to "apps""#)
        #expect(challenges[1].realm == "simple")
    }

    @Test("Challenges across repeated header fields are all found, in order")
    func repeatedHeaders() {
        var headers = HTTPHeaders()
        headers.add(.wwwAuthenticate, #"Bearer realm="api", error="invalid_token""#)
        headers.add(.wwwAuthenticate, #"Basic realm="legacy""#)
        let response = HTTPResponse(
            statusCode: 401,
            headers: headers,
            request: HTTPRequest(method: .get, baseEndpoint: "https://a.example")
        )
        let challenges = response.authenticationChallenges
        #expect(challenges.map(\.scheme) == ["Bearer", "Basic"])
        #expect(challenges[0]["error"] == "invalid_token")
        #expect(challenges[1].realm == "legacy")
    }

    @Test("A 401's challenges are the server's, with its origin; a 407's are the proxy's Proxy-Authenticate ones")
    func serverOrProxy() {
        var headers = HTTPHeaders()
        headers.add(.wwwAuthenticate, #"Bearer realm="api""#)
        headers.add("Proxy-Authenticate", #"Basic realm="corp""#)
        let request = HTTPRequest(method: .get, baseEndpoint: "https://a.example:8443", path: "/me")
        let server = HTTPResponse(statusCode: 401, headers: headers, request: request)
        let proxy = HTTPResponse(statusCode: 407, headers: headers, request: request)

        #expect(server.authenticationChallenges.map(\.scheme) == ["Bearer"])
        #expect(server.authenticationChallenges.first?.isProxy == false)
        #expect(server.authenticationChallenges.first?.origin == "https://a.example:8443")
        #expect(proxy.authenticationChallenges.map(\.realm) == ["corp"])
        #expect(proxy.authenticationChallenges.first?.isProxy == true)
    }

    @Test("token68 data is kept, padding included, and a following challenge still parses")
    func token68() {
        let challenges = AuthenticationChallenge.parse("Negotiate a87421000492aa874209af8bc028==, Basic realm=x")
        #expect(challenges.count == 2)
        #expect(challenges[0].token68 == "a87421000492aa874209af8bc028==")
        #expect(challenges[0].parameters.isEmpty)
        #expect(challenges[1].realm == "x")
    }

    @Test("Schemes without parameters, empty list elements and spaces around = are accepted")
    func looseSyntax() {
        let challenges = AuthenticationChallenge.parse(" , Basic ,, Digest realm = \"r\" , nonce=\"n\",")
        #expect(challenges.map(\.scheme) == ["Basic", "Digest"])
        #expect(challenges[1].realm == "r")
        #expect(challenges[1]["nonce"] == "n")
    }

    @Test("A Basic challenge without a realm has no realm")
    func missingRealm() {
        #expect(AuthenticationChallenge.parse("Basic").first?.realm == nil)
    }

    @Test("Garbage never crashes and unterminated quotes end at the end of the value")
    func garbage() {
        let inputs = [
            "", ",", "=", "\"", "\\", "Basic realm=\"unterminated", "Basic realm=\"x\\", "===", "Basic @@@, Bearer",
            "a=b=c", "Basic realm=\"x\" junk, Bearer realm=y", "\u{0}\u{1}\u{ff}",
            String(repeating: "\"\\,=", count: 500),
        ]
        for input in inputs {
            expectWellFormed(AuthenticationChallenge.parse(input), from: input)
        }
        #expect(AuthenticationChallenge.parse("Basic realm=\"unterminated").first?.realm == "unterminated")
        let junk = AuthenticationChallenge.parse("Basic realm=\"x\" junk, Bearer realm=y")
        #expect(junk.map(\.scheme) == ["Basic", "Bearer"])
        var generator = SplitMix64(seed: 0xA117_0001)
        let alphabet = Array(" \t,=\"\\abcBasicrealm/+~-.é\u{0}")
        var challengeCount = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? " " })
            let challenges = AuthenticationChallenge.parse(text)
            challengeCount += challenges.count
            expectWellFormed(challenges, from: text)
        }
        // The random values do hold challenges, so the checks above looked at some.
        #expect(challengeCount > 100)
    }

    /// What survives malformed input is still well formed: schemes and parameter names are non-empty RFC 9110 tokens.
    private func expectWellFormed(_ challenges: [AuthenticationChallenge], from input: String) {
        let symbols = Set("!#$%&'*+-.^_`|~".utf8)
        func isToken(_ text: String) -> Bool {
            !text.isEmpty
                && text.utf8.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || symbols.contains(byte)
                }
        }
        for challenge in challenges {
            #expect(isToken(challenge.scheme), "scheme of \(challenge) from \(input.debugDescription)")
            for parameter in challenge.parameters {
                #expect(isToken(parameter.name), "name \(parameter.name.debugDescription) in \(input.debugDescription)")
            }
        }
    }
}
