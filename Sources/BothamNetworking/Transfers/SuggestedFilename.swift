import Foundation

/// The file name a response suggests, made safe to use inside a folder of your choosing.
///
/// The name comes from `Content-Disposition` (`filename*=UTF-8''…` first, then `filename="…"`), else from the last
/// component of the response's URL, else it is `download`. Whatever the server sends, the result is a single plain
/// file name: folders (`/`, `\`), `..`, NUL and other control characters and leading dots are removed, so
/// `../../etc/passwd` becomes `passwd` and `.bashrc` becomes `bashrc`; it is at most 255 bytes of UTF-8.
///
/// ```swift
/// SuggestedFilename.from(contentDisposition: #"attachment; filename="../../etc/passwd""#, url: nil)  // "passwd"
/// ```
package enum SuggestedFilename {
    /// The name used when neither the header nor the URL gives one.
    package static let fallback = "download"

    /// The safe name for a response with this `Content-Disposition` value that came from `url`.
    package static func from(contentDisposition: String?, url: URL?) -> String {
        if let contentDisposition {
            let parameters = ContentDispositionParser.parameters(of: contentDisposition)
            if let extended = parameters["filename*"].flatMap(ContentDispositionParser.decodeExtendedValue),
                let name = sanitized(extended)
            {
                return name
            }
            if let plain = parameters["filename"], let name = sanitized(plain) { return name }
        }
        if let url, let name = sanitized(url.lastPathComponent) { return name }
        return fallback
    }

    // Done scalar by scalar: a `/` or a `.` followed by a combining mark is one `Character`, which a comparison of
    // characters would not see (found by `Fuzz/FuzzContentDisposition`, as were leading dots that trimming the
    // white space before them exposed).
    /// `name` reduced to a safe file name, or `nil` when nothing usable is left.
    package static func sanitized(_ name: String) -> String? {
        let components = name.unicodeScalars.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        var scalars = components.last.map(Array.init) ?? []
        scalars.removeAll { CharacterSet.controlCharacters.contains($0) || $0 == "\u{7F}" }
        let isSpace = { (scalar: Unicode.Scalar) in CharacterSet.whitespacesAndNewlines.contains(scalar) }
        while let first = scalars.first, first == "." || isSpace(first) { scalars.removeFirst() }
        var cleaned = String(String.UnicodeScalarView(scalars))
        // Whole characters off the end, so a cut never leaves half a character or trailing white space.
        while cleaned.utf8.count > 255 || cleaned.unicodeScalars.last.map(isSpace) == true { cleaned.removeLast() }
        return cleaned.isEmpty ? nil : cleaned
    }
}

extension HTTPResponse {
    /// The file name this response suggests: `Content-Disposition`'s `filename*` or `filename`, else the URL's last
    /// path component, else `download`; sanitized, so never empty, never a path or a hidden file.
    public var suggestedFilename: String {
        SuggestedFilename.from(contentDisposition: headers[.contentDisposition], url: url)
    }
}

/// Reads the parameters of a `Content-Disposition` value (RFC 6266) and RFC 8187 extended values.
enum ContentDispositionParser {
    /// The parameters by lower-cased name (the first of each name wins), read by ``FieldParameters`` scalar by
    /// scalar, so a quote, `;`, `=` or backslash followed by a combining mark still counts. In a quoted string a
    /// backslash escapes only `"` and `\\`; before anything else it is kept, as servers send Windows paths unescaped
    /// (and a backslash is a folder separator the name loses anyway).
    static func parameters(of value: String) -> [String: String] {
        var result: [String: String] = [:]
        for parameter in FieldParameters.parse(value, escapes: .keepingUnknown).parameters
        where result[parameter.name] == nil {
            result[parameter.name] = parameter.value
        }
        return result
    }

    /// An RFC 8187 value `charset'language'percent-encoded` decoded (UTF-8 and ISO-8859-1), or `nil`.
    static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        var bytes: [UInt8] = []
        var iterator = parts[2].utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        switch charset {
        case "utf-8": return String(bytes: bytes, encoding: .utf8)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
