import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of `SuggestedFilename`, for any `Content-Disposition` value a server could send:
///
/// - it never traps and always gives a safe name: not empty, at most 255 bytes of UTF-8, no `/`, `\`, NUL or other
///   control character, no leading `.` (so never `..` or a hidden file), no white space at either end;
/// - the name is already sanitized (`sanitized(name) == name`), and so is the fallback;
/// - a name sent as an RFC 8187 extended value (`filename*=UTF-8''…`, every byte percent-encoded) or as a quoted
///   string (`filename="…"`, quotes and backslashes escaped) comes back as `sanitized(name)`, and the extended value
///   wins over the plain one.
enum ContentDispositionCheck {
    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        check(SuggestedFilename.from(contentDisposition: value, url: nil), for: value)
        check(SuggestedFilename.from(contentDisposition: "attachment; " + value, url: nil), for: value)

        var input = FuzzInput(bytes)
        let name = input.string(maxLength: 300)
        let other = input.string(maxLength: 16)
        let expected = SuggestedFilename.sanitized(name) ?? SuggestedFilename.fallback
        let extended = "attachment; filename*=UTF-8''" + percentEncoded(name)
        let fromExtended = SuggestedFilename.from(contentDisposition: extended, url: nil)
        fuzzExpect(
            fromExtended == expected, "\(Array(name.utf8)) as an extended value gives \(Array(fromExtended.utf8))")
        let quoted = "attachment; filename=\"" + escaped(name) + "\""
        let fromQuoted = SuggestedFilename.from(contentDisposition: quoted, url: nil)
        fuzzExpect(fromQuoted == expected, "\(Array(name.utf8)) quoted gives \(Array(fromQuoted.utf8))")
        if SuggestedFilename.sanitized(name) != nil {
            let both = "inline; filename=\"" + escaped(other) + "\"; filename*=UTF-8''" + percentEncoded(name)
            let fromBoth = SuggestedFilename.from(contentDisposition: both, url: nil)
            fuzzExpect(fromBoth == expected, "the extended value lost to the plain one: \(Array(fromBoth.utf8))")
        }
    }

    private static func check(_ name: String, for value: String) {
        let bytes = Array(name.utf8)
        fuzzExpect(!bytes.isEmpty && bytes.count <= 255, "\(bytes.count) bytes from \(Array(value.utf8))")
        fuzzExpect(
            !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F },
            "a separator or control character in \(bytes)")
        fuzzExpect(
            !name.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) },
            "a control or format character in \(bytes)")
        fuzzExpect(bytes.first != UInt8(ascii: "."), "a leading dot in \(bytes)")
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        fuzzExpect(trimmed == name, "white space at an end of \(bytes)")
        fuzzExpect(SuggestedFilename.sanitized(name) == name, "\(bytes) is not sanitized")
    }

    /// Every UTF-8 byte as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }

    /// `text` for a quoted string: `"` and `\` preceded by a backslash, scalar by scalar.
    private static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.append("\\") }
            result.append(scalar)
        }
        return String(result)
    }
}
