import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of the `WWW-Authenticate` parser, for any header value:
///
/// - it terminates and never traps (libFuzzer's `-timeout` turns a hang into a failure);
/// - every scheme and parameter name is a non-empty RFC 9110 token, every token68 matches its grammar;
/// - writing the challenges back in canonical form (`Scheme token68` or `Scheme name="value", …`, quotes and
///   backslashes escaped) and parsing that gives the same challenges;
/// - parsing several fields gives the challenges of each field, in order.
enum WWWAuthenticateCheck {
    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        let challenges = AuthenticationChallenge.parse(value)
        for challenge in challenges {
            check(challenge)
        }
        let canonical = serialize(challenges)
        let reparsed = AuthenticationChallenge.parse(canonical)
        fuzzExpect(
            reparsed == challenges, "\(challenges) written as \(canonical) reads back as \(reparsed)")

        let fields = value.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        let headers = HTTPHeaders(fields.map { HTTPHeaders.Field(name: .wwwAuthenticate, value: $0) })
        fuzzExpect(
            AuthenticationChallenge.parse(headers) == fields.flatMap { AuthenticationChallenge.parse($0) },
            "several fields parse differently from each field")
    }

    private static func check(_ challenge: AuthenticationChallenge) {
        fuzzExpect(isToken(challenge.scheme), "scheme \(Array(challenge.scheme.utf8))")
        for parameter in challenge.parameters {
            fuzzExpect(isToken(parameter.name), "parameter name \(Array(parameter.name.utf8))")
        }
        if let token68 = challenge.token68 {
            fuzzExpect(challenge.parameters.isEmpty, "token68 and parameters together")
            let body = token68.utf8.prefix { $0 != UInt8(ascii: "=") }
            fuzzExpect(!body.isEmpty && body.allSatisfy(isToken68Character), "token68 \(token68)")
            fuzzExpect(token68.utf8.dropFirst(body.count).allSatisfy { $0 == UInt8(ascii: "=") }, "token68 \(token68)")
        }
    }

    private static func serialize(_ challenges: [AuthenticationChallenge]) -> String {
        challenges.map { challenge in
            if let token68 = challenge.token68 { return challenge.scheme + " " + token68 }
            guard !challenge.parameters.isEmpty else { return challenge.scheme }
            let parameters = challenge.parameters.map { parameter in
                // Escaped scalar by scalar: `replacingOccurrences` compares grapheme clusters and would miss a `"`
                // followed by a combining mark.
                var escaped = String.UnicodeScalarView()
                for scalar in parameter.value.unicodeScalars {
                    if scalar == "\"" || scalar == "\\" { escaped.append("\\") }
                    escaped.append(scalar)
                }
                return parameter.name + "=\"" + String(escaped) + "\""
            }
            return challenge.scheme + " " + parameters.joined(separator: ", ")
        }
        .joined(separator: ", ")
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }

    private static func isToken68Character(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~+/".utf8.contains(byte)
    }
}
