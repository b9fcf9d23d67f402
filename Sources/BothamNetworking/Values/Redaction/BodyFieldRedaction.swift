import Foundation

/// Hides the values of named fields in JSON and form bodies, for ``Redactor/redact(body:contentType:)``.
///
/// JSON is scanned, not parsed: the bytes are copied as they are except each value whose member name is hidden,
/// which becomes the replacement as a JSON string. So formatting, numbers and key order survive, names are matched
/// after their escapes are decoded (`"pass\u0077ord"` is `password`), a hidden value may be anything (an object or
/// an array is hidden whole), and text that is not valid JSON (cut short, say) is still redacted wherever it has a
/// `"name": value` shape. Nothing here can trap or read out of bounds.
enum BodyFieldRedaction {
    /// `body` with the values of the fields `isHidden` names replaced, or `nil` when nothing was hidden.
    ///
    /// Form bodies (`application/x-www-form-urlencoded`) are redacted pair by pair; every other body whose
    /// `Content-Type` is JSON, or that starts with `{` or `[` (after white space or a byte order mark), is scanned as
    /// JSON. Other bodies are left alone.
    static func redact(
        _ body: Data,
        contentType: String?,
        replacement: String,
        isHidden: (String) -> Bool
    ) -> Data? {
        let bytes = [UInt8](body)
        let essence = contentType.map(MediaType.essence)
        if essence == MediaType.form {
            return redactForm(bytes, replacement: Array(replacement.utf8), isHidden: isHidden).map { Data($0) }
        }
        guard essence.map(MediaType.isJSON) == true || looksLikeJSON(bytes) else { return nil }
        return redactJSON(bytes, replacement: jsonString(replacement), isHidden: isHidden).map { Data($0) }
    }

    /// Whether the first byte after white space (and a UTF-8 byte order mark) opens an object or an array.
    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index < bytes.count && (bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["))
    }

    // MARK: JSON

    /// The JSON text with each hidden member's value replaced by `replacement` (already a JSON string), or `nil`.
    static func redactJSON(_ bytes: [UInt8], replacement: [UInt8], isHidden: (String) -> Bool) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0
        var redacted = false
        var index = 0
        while index < bytes.count {
            guard bytes[index] == quote else {
                index += 1
                continue
            }
            let string = stringExtent(bytes, from: index)
            var next = skipWhitespace(bytes, from: string.end)
            guard next < bytes.count, bytes[next] == UInt8(ascii: ":"),
                isHidden(decodedString(bytes[(index + 1)..<string.contentEnd]))
            else {
                index = string.end
                continue
            }
            next = skipWhitespace(bytes, from: next + 1)
            let valueEnd = self.valueEnd(bytes, from: next)
            guard valueEnd > next else {
                index = next
                continue
            }
            if !redacted { output.reserveCapacity(bytes.count) }
            output += bytes[copied..<next]
            output += replacement
            copied = valueEnd
            redacted = true
            index = valueEnd
        }
        guard redacted else { return nil }
        output += bytes[copied...]
        return output
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The string starting at the quote at `start`: where its content ends (the closing quote) and the index after
    /// it; an unterminated string runs to the end.
    private static func stringExtent(_ bytes: [UInt8], from start: Int) -> (contentEnd: Int, end: Int) {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case backslash: index += 2
            case quote: return (index, index + 1)
            default: index += 1
            }
        }
        return (bytes.count, bytes.count)
    }

    /// The index after the value starting at `start`: a string, an object or array (brackets balanced, strings
    /// skipped), or a bare scalar up to the next `,`, `}`, `]` or line break (trailing white space left out).
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case quote:
            return stringExtent(bytes, from: start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    index = stringExtent(bytes, from: index).end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return bytes.count
        default:
            var end = start
            while end < bytes.count, !",}]\r\n".utf8.contains(bytes[end]) { end += 1 }
            while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
            return end
        }
    }

    private static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The content of a JSON string with its escapes decoded; invalid escapes and bytes become U+FFFD or stay as
    /// written, never an error.
    static func decodedString(_ content: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingHighSurrogate: UInt32?
        var bytes: [UInt8] = []
        func flushBytes() {
            guard !bytes.isEmpty else { return }
            scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes.removeAll(keepingCapacity: true)
        }
        func flushSurrogate() {
            if pendingHighSurrogate != nil { scalars.append("\u{FFFD}") }
            pendingHighSurrogate = nil
        }
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            guard byte == backslash, index + 1 < content.endIndex else {
                flushSurrogate()
                bytes.append(byte)
                index += 1
                continue
            }
            flushBytes()
            let escape = content[index + 1]
            index += 2
            if escape == UInt8(ascii: "u"), let unit = hexValue(content[index..<min(index + 4, content.endIndex)]) {
                index += 4
                if (0xD800...0xDBFF).contains(unit) {
                    flushSurrogate()
                    pendingHighSurrogate = unit
                } else if (0xDC00...0xDFFF).contains(unit), let high = pendingHighSurrogate {
                    pendingHighSurrogate = nil
                    let value = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                } else {
                    flushSurrogate()
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
                continue
            }
            flushSurrogate()
            switch escape {
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            default: bytes.append(escape)  // `\"`, `\\`, `\/`, and anything else as written
            }
        }
        flushSurrogate()
        flushBytes()
        return String(scalars)
    }

    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt32? {
        guard digits.count == 4 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard let nibble = hexDigit(digit) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `text` as a JSON string literal, quotes included.
    static func jsonString(_ text: String) -> [UInt8] {
        var result: [UInt8] = [quote]
        for byte in text.utf8 {
            switch byte {
            case quote, backslash: result += [backslash, byte]
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                result += Array(#"\u00"#.utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            default: result.append(byte)
            }
        }
        result.append(quote)
        return result
    }

    // MARK: Forms

    /// The form body with each hidden field's value replaced, or `nil`. Names are compared after `+` and
    /// percent-decoding; pairs are otherwise copied byte for byte.
    static func redactForm(_ bytes: [UInt8], replacement: [UInt8], isHidden: (String) -> Bool) -> [UInt8]? {
        var redacted = false
        let pairs = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair in
            let name = pair.prefix { $0 != UInt8(ascii: "=") }
            guard isHidden(formDecoded(name)) else { return Array(pair) }
            redacted = true
            return Array(name) + [UInt8(ascii: "=")] + replacement
        }
        guard redacted else { return nil }
        return Array(pairs.joined(separator: [UInt8(ascii: "&")]))
    }

    private static func formDecoded(_ name: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        var index = name.startIndex
        while index < name.endIndex {
            let byte = name[index]
            if byte == UInt8(ascii: "%"), index + 2 < name.endIndex, let high = hexDigit(name[index + 1]),
                let low = hexDigit(name[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
