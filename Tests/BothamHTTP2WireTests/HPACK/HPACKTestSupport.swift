@testable import BothamHTTP2Wire

/// Helpers of the HPACK tests: hex dumps as the RFC prints them, and fields from string pairs.
enum HPACKTestSupport {
    /// The bytes of a hex dump such as `"8286 8441"` (spaces and line breaks ignored); a malformed dump gives
    /// an odd or empty result the test's own expectations then catch.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = hex.compactMap { $0.hexDigitValue }
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }

    /// The bytes as a lower-case hex string without spaces, for readable failures.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// Fields from `(name, value)` pairs.
    static func fields(_ pairs: [(String, String)]) -> [HPACKHeaderField] {
        pairs.map { HPACKHeaderField(name: $0.0, value: $0.1) }
    }

    /// A table's entries as `(name, value, size)` triples, newest first, comparable with the RFC's dumps.
    static func entries(_ fields: [HPACKHeaderField]) -> [String] {
        fields.map { "\($0.description) (\($0.size))" }
    }
}
