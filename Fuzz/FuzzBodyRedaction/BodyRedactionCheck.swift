import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of body-field redaction (`Redactor.redact(body:contentType:)`, used by `LoggingInterceptor` and
/// `cURLDescription`), for any body and any `Content-Type`:
///
/// - it never traps; ``Redactor/none`` changes nothing; redacting twice gives what redacting once gave;
/// - for any JSON value whose members may carry hidden names (at any depth, in objects and arrays, in any case, the
///   value of any kind), the redacted text of its encoding is byte for byte the encoding of the value with each
///   hidden member's value replaced by `"REDACTED"` (members under a hidden one are gone with it);
/// - the same for form bodies, pair by pair;
/// - the cURL command of a request with such a body carries the redacted body, never the original one.
enum BodyRedactionCheck {
    static let redactor = Redactor(bodyFieldNames: ["pin"])
    private static let contentTypes = [
        nil, "application/json", "application/problem+json; charset=utf-8", "application/x-www-form-urlencoded",
        "text/plain", "application/octet-stream",
    ]
    private static let hiddenNames = ["password", "PASSWORD", "Access_Token", "refresh_token", "pin", "id_token"]
    private static let url = URL(string: "https://fuzz.example/body")

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        switch input.choice(3) {
        case 0: checkRaw(&input)
        case 1: checkJSON(&input)
        default: checkForm(&input)
        }
    }

    /// Any bytes: no trap, `none` is the identity, redaction is idempotent, the cURL command never traps.
    private static func checkRaw(_ input: inout FuzzInput) {
        let contentType = contentTypes[input.choice(contentTypes.count)]
        let body = Data(input.rest())
        let once = redactor.redact(body: body, contentType: contentType)
        fuzzExpect(redactor.redact(body: once, contentType: contentType) == once, "not idempotent: \(Array(body))")
        fuzzExpect(Redactor.none.redact(body: body, contentType: contentType) == body, "none changed \(Array(body))")
        guard let url else { return }
        let request = HTTPRequest(method: .post, url: url, body: .data(body, contentType: contentType))
        _ = request.cURLDescription(redactor: redactor)
    }

    /// A generated JSON value with hidden members: the redacted encoding is the encoding of the redacted value.
    private static func checkJSON(_ input: inout FuzzInput) {
        let value = withHiddenNames(JSONValueGenerator.object(from: &input), &input)
        guard !JSONValueGenerator.containsNonFiniteNumber(value), let encoded = try? value.encoded(),
            let expected = try? redacted(value).encoded()
        else { return }
        let contentType = [nil, "application/json", "text/plain"][input.choice(3)]
        let output = redactor.redact(body: encoded, contentType: contentType)
        fuzzExpect(
            output == expected,
            "\(String(decoding: encoded, as: UTF8.self)) redacted as \(String(decoding: output, as: UTF8.self)), "
                + "not \(String(decoding: expected, as: UTF8.self))")
        fuzzExpect(redactor.redact(body: output, contentType: contentType) == output, "not idempotent")
        checkCURL(body: encoded, contentType: contentType ?? "application/json", expected: expected)
    }

    /// Generated form pairs with hidden names: each hidden value, and only those, becomes `REDACTED`.
    private static func checkForm(_ input: inout FuzzInput) {
        var pairs: [(name: String, value: String)] = []
        for _ in 0..<input.choice(6) {
            let name = input.choice(2) == 0 ? hiddenNames[input.choice(hiddenNames.count)] : input.string(maxLength: 8)
            pairs.append((name, input.string(maxLength: 16)))
        }
        let body = pairs.map { formEncoded($0.name) + "=" + formEncoded($0.value) }.joined(separator: "&")
        let expected = pairs.map { pair in
            formEncoded(pair.name) + "="
                + (redactor.redacts(bodyField: pair.name) ? "REDACTED" : formEncoded(pair.value))
        }.joined(separator: "&")
        let contentType = "application/x-www-form-urlencoded"
        let output = redactor.redact(body: Data(body.utf8), contentType: contentType)
        fuzzExpect(output == Data(expected.utf8), "\(body) redacted as \(String(decoding: output, as: UTF8.self))")
        checkCURL(body: Data(body.utf8), contentType: contentType, expected: Data(expected.utf8))
    }

    private static func checkCURL(body: Data, contentType: String, expected: Data) {
        guard let url, !expected.isEmpty, let text = String(data: expected, encoding: .utf8), !text.contains("\0")
        else { return }
        let request = HTTPRequest(method: .post, url: url, body: .data(body, contentType: contentType))
        let command = request.cURLDescription(redactor: redactor)
        fuzzExpect(command.hasSuffix(" --data-binary " + shellQuoted(text)), "cURL body of \(command)")
    }

    /// `value` with some member names (taken from `input`) replaced by hidden names, at any depth.
    private static func withHiddenNames(_ value: JSONValue, _ input: inout FuzzInput) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { withHiddenNames($0, &input) })
        case .object(let members):
            return .object(
                members.map { member in
                    let key = input.choice(3) == 0 ? hiddenNames[input.choice(hiddenNames.count)] : member.key
                    return (key: key, value: withHiddenNames(member.value, &input))
                })
        default:
            return value
        }
    }

    /// What the redactor must make of `value`.
    private static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(redacted))
        case .object(let members):
            return .object(
                members.map { member in
                    (
                        key: member.key,
                        value: redactor.redacts(bodyField: member.key) ? "REDACTED" : redacted(member.value)
                    )
                })
        default:
            return value
        }
    }

    /// Percent-encodes everything but unreserved characters, as a form encoder would.
    private static func formEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let unreserved =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~".utf8.contains(byte)
            if unreserved { return String(UnicodeScalar(byte)) }
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }

    /// POSIX single quotes, scalar by scalar (what `cURLDescription` promises).
    private static func shellQuoted(_ text: String) -> String {
        var quoted = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted += #"'\''"# } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }
}
