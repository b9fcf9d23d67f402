/// Byte classes of RFC 9110 / 9112 used by the parser and the serializer.
enum HTTPSyntax {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58
    static let semicolon: UInt8 = 59

    /// `tchar`: the characters of a token (header names, methods, codings).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// The comma-separated, trimmed, lower-cased elements of a list-valued field (`Connection`, codings).
    static func listElements(_ value: String) -> [String] {
        value.utf8.split(separator: UInt8(ascii: ",")).compactMap { element in
            let trimmed = trimmed(element)
            return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self).lowercased()
        }
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var bytes = bytes
        while let first = bytes.first, first == space || first == tab { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == space || last == tab { bytes = bytes.dropLast() }
        return bytes
    }
}
