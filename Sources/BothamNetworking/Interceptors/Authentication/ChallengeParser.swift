/// A byte-level parser for RFC 9110 §11.6.1 challenge lists:
///
/// ```
/// challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-param = token BWS "=" BWS ( token / quoted-string )
/// token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
/// ```
///
/// After a comma, `token BWS "="` followed by a value starts another parameter of the current challenge; anything
/// else starts a new challenge. Garbage is skipped up to the next comma outside a quoted string; every loop advances,
/// so any input terminates.
struct ChallengeParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseChallenges() -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        while index < bytes.count {
            skipSeparators()
            guard index < bytes.count else { break }
            guard let scheme = readToken() else {
                skipElement()
                continue
            }
            var challenge = AuthenticationChallenge(scheme: scheme)
            skipWhitespace()
            if let token68 = readToken68() {
                challenge.token68 = token68
            } else {
                readParameters(into: &challenge)
            }
            challenges.append(challenge)
        }
        return challenges
    }

    /// Reads `#auth-param` after a scheme, stopping before the comma that starts the next challenge.
    private mutating func readParameters(into challenge: inout AuthenticationChallenge) {
        while index < bytes.count {
            let start = index
            skipSeparators()
            if let parameter = readParameter() {
                challenge.parameters.append(parameter)
                skipWhitespace()
                if index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                    // Junk after a parameter: drop the rest of this element.
                    skipElement()
                }
                continue
            }
            // Not a parameter: a new challenge starts here (or garbage the caller skips).
            index = start
            return
        }
    }

    /// `token BWS "=" BWS ( token / quoted-string )`, or nothing (and the position restored).
    private mutating func readParameter() -> AuthenticationChallenge.Parameter? {
        let start = index
        guard let name = readToken() else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            index = start
            return nil
        }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            return AuthenticationChallenge.Parameter(name: name, value: readQuotedString())
        }
        guard let value = readToken() else {
            index = start
            return nil
        }
        return AuthenticationChallenge.Parameter(name: name, value: value)
    }

    /// A token68 that is the whole rest of the element, or nothing (and the position restored).
    private mutating func readToken68() -> String? {
        let start = index
        while index < bytes.count, Self.isToken68Character(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
        let end = index
        skipWhitespace()
        guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func readToken() -> String? {
        let start = index
        while index < bytes.count, HTTPToken.isTokenCharacter(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted-string starting at the opening quote; an unterminated one runs to the end.
    private mutating func readQuotedString() -> String {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\"), index < bytes.count {
                value.append(bytes[index])
                index += 1
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
    }

    private mutating func skipSeparators() {
        while index < bytes.count,
            bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: ",")
        {
            index += 1
        }
    }

    /// Skips to the next comma outside a quoted string (always advancing at least one byte).
    private mutating func skipElement() {
        var inQuotes = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            inQuotes = true
        }
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: ",") {
                return
            }
            index += 1
        }
    }

    private static func isToken68Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
