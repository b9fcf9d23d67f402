import Foundation

/// Renders untrusted strings and bytes for people: never crashes, whatever the input.
package enum DebugText {
    /// A string with control characters escaped, so CR/LF or NUL cannot forge extra log lines.
    package static func printable(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A string in double quotes with control characters escaped.
    package static func quoted(_ text: String) -> String {
        "\"" + printable(text) + "\""
    }

    /// A body for people: UTF-8 text (escaped, cut at `limit` bytes) or, for other bytes, the size and a hex preview.
    package static func body(_ data: Data, limit: Int = 1_024) -> String {
        if data.isEmpty { return "(empty body)" }
        let prefix = data.prefix(max(0, limit))
        if let text = validUTF8(prefix) ?? utf8CutAtScalarBoundary(prefix) {
            let more = data.count > prefix.count ? "… (\(data.count) bytes)" : ""
            return printable(text) + more
        }
        let preview = data.prefix(32).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        return "(\(data.count) bytes of binary data: \(preview.joined(separator: " "))\(data.count > 32 ? " …" : ""))"
    }

    /// Decodes a prefix of UTF-8 that may end in the middle of a scalar (up to three bytes are dropped).
    private static func utf8CutAtScalarBoundary(_ data: Data) -> String? {
        for drop in 1...3 where data.count > drop {
            if let text = validUTF8(data.dropLast(drop)) { return text }
        }
        return nil
    }

    /// `bytes` as a string when they are valid UTF-8, `nil` otherwise. (`String(validating:as:)` does this from
    /// macOS 15 and iOS 18 only; the package supports older releases.)
    package static func validUTF8(_ bytes: some Collection<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
