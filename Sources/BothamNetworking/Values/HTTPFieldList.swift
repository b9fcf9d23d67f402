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

    /// Whether one of the comma-separated elements of `value` is `element` (ASCII, lower case), ignoring ASCII case
    /// and the spaces and tabs around it, without building the list ``elements(of:)`` builds. (Unlike that list's
    /// Unicode lower-casing, a non-ASCII character such as the Kelvin sign never matches an ASCII letter here.)
    @inlinable
    package static func contains(_ element: StaticString, in value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            let wanted = UnsafeBufferPointer(start: element.utf8Start, count: element.utf8CodeUnitCount)
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
                while last > first && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) { last -= 1 }
                if last - first == wanted.count
                    && zip(bytes[first..<last], wanted).allSatisfy({ pair in
                        let byte = pair.0 >= 0x41 && pair.0 <= 0x5A ? pair.0 | 0x20 : pair.0
                        return byte == pair.1
                    })
                {
                    return true
                }
                start = end + 1
            }
            return false
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
