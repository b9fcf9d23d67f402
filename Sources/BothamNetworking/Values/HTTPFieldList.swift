/// The elements of a list-valued header field (RFC 9110 §5.6.1: `Connection`, `Content-Encoding`,
/// `Transfer-Encoding`, …), for both transports and the test server (hence `package` access).
package enum HTTPFieldList {
    /// The comma-separated elements of `value`, without the spaces and tabs around them, lower-cased; empty elements
    /// are skipped (`"gzip, , br"` → `["gzip", "br"]`).
    @inlinable
    package static func elements(of value: String) -> [String] {
        value.utf8.split(separator: UInt8(ascii: ",")).compactMap { element in
            let trimmed = trimmingWhitespace(element)
            return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self).lowercased()
        }
    }

    /// `bytes` without leading and trailing spaces and tabs (RFC 9110's `OWS`).
    @inlinable
    package static func trimmingWhitespace(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    /// `text` without leading and trailing spaces and tabs (RFC 9110's `OWS`), byte for byte as the `UTF8View`
    /// overload trims (a space before a combining mark is trimmed too: `OWS` is bytes, not characters).
    @inlinable
    package static func trimmingWhitespace(_ text: Substring) -> Substring {
        Substring(trimmingWhitespace(text.utf8))
    }
}
