import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of the query and form encoders, for any names, values and nested parameters:
///
/// - an escaped component holds only unreserved characters, `?`, `/` and well-formed `%XX` escapes, and
///   `removingPercentEncoding` gives the input back;
/// - `HTTPParameters.percentEncoded` splits on `&` and `=` into exactly its items, and `URLComponents` reads the
///   same names and values back;
/// - `ParameterEncoding.percentEncoded` throws `invalidRequest` exactly when the parameters are not a dictionary or
///   hold a NaN or an infinity, and otherwise is the escaped form of `items(for:)`.
enum QueryEncodingCheck {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        switch input.choice(3) {
        case 0: checkComponent(input.string(maxLength: 256))
        case 1: checkParameters(&input)
        default: checkNestedParameters(&input)
        }
    }

    private static func checkComponent(_ text: String) {
        let escaped = URLEncoding.escapeQueryComponent(text)
        checkEscapedAlphabet(escaped)
        fuzzExpect(!escaped.contains("&") && !escaped.contains("="), "separator left unescaped in \(escaped)")
        fuzzExpect(
            escaped.removingPercentEncoding == text,
            "\(Array(text.utf8)) escaped to \(escaped) decodes to \(String(describing: escaped.removingPercentEncoding))"
        )
    }

    private static func checkParameters(_ input: inout FuzzInput) {
        var parameters = HTTPParameters()
        for _ in 0..<input.choice(6) {
            parameters.append(input.string(maxLength: 24), input.string(maxLength: 24))
        }
        checkEncoded(parameters.percentEncoded, items: parameters.items)
    }

    private static func checkNestedParameters(_ input: inout FuzzInput) {
        let encoding = ParameterEncoding(
            arrayEncoding: [.brackets, .noBrackets, .indexed][input.choice(3)],
            boolEncoding: [.numeric, .literal][input.choice(2)],
            keyOrder: [.sorted, .asWritten][input.choice(2)],
            nullEncoding: [.dropKey, .dropValue, .null][input.choice(3)]
        )
        let parameters =
            input.choice(8) == 0
            ? JSONValueGenerator.value(from: &input) : JSONValueGenerator.object(from: &input)
        var isDictionary = false
        if case .object = parameters { isDictionary = true }
        let mustThrow = !isDictionary || JSONValueGenerator.containsNonFiniteNumber(parameters)
        do {
            let encoded = try encoding.percentEncoded(parameters)
            fuzzExpect(!mustThrow, "\(parameters) was encoded as \(encoded) instead of rejected")
            let items = try encoding.items(for: parameters)
            fuzzExpect(encoded == items.percentEncoded, "percentEncoded differs from items(for:)")
            checkEncoded(encoded, items: items.items)
        } catch {
            fuzzExpect(mustThrow, "\(parameters) rejected: \(error)")
            guard case .invalidRequest = error else {
                fuzzExpect(false, "unexpected error \(error)")
                return
            }
        }
    }

    /// `encoded` is exactly `items`, escaped, as both a manual split and `URLComponents` read it.
    private static func checkEncoded(_ encoded: String, items: [HTTPParameters.Item]) {
        checkEscapedAlphabet(encoded)
        guard !items.isEmpty else {
            fuzzExpect(encoded.isEmpty, "no items but \(encoded)")
            return
        }
        let pairs = encoded.split(separator: "&", omittingEmptySubsequences: false)
        fuzzExpect(pairs.count == items.count, "\(items.count) items but \(pairs.count) pairs in \(encoded)")
        for (pair, item) in zip(pairs, items) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            fuzzExpect(parts.count == 2, "pair \(pair) is not name=value")
            fuzzExpect(String(parts[0]).removingPercentEncoding == item.name, "name \(parts[0]) ≠ \(item.name)")
            fuzzExpect(String(parts[1]).removingPercentEncoding == item.value, "value \(parts[1]) ≠ \(item.value)")
        }
        var components = URLComponents()
        components.percentEncodedQuery = encoded
        let read = components.queryItems ?? []
        fuzzExpect(read.count == items.count, "URLComponents read \(read.count) items from \(encoded)")
        for (queryItem, item) in zip(read, items) {
            fuzzExpect(queryItem.name == item.name, "URLComponents name \(queryItem.name) ≠ \(item.name)")
            fuzzExpect(queryItem.value == item.value, "URLComponents value \(String(describing: queryItem.value))")
        }
    }

    /// Only `A–Z a–z 0–9 - . _ ~ ? /`, the separators `&` `=`, and `%` followed by two upper-case hex digits.
    private static func checkEscapedAlphabet(_ escaped: String) {
        let bytes = Array(escaped.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                fuzzExpect(index + 2 < bytes.count, "truncated escape in \(escaped)")
                fuzzExpect(
                    isUpperHex(bytes[index + 1]) && isUpperHex(bytes[index + 2]), "malformed escape in \(escaped)")
                index += 3
                continue
            }
            fuzzExpect(isAllowed(byte), "byte \(byte) left unescaped in \(escaped)")
            index += 1
        }
    }

    private static func isUpperHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~?/&=".utf8.contains(byte)
    }
}
