/// RFC 3986 percent-encoding used to build URLs and form bodies.
package enum URLEncoding {
    /// Escapes a query name or value: everything but the unreserved characters (`A–Z a–z 0–9 - . _ ~`) and `?` `/`
    /// (which RFC 3986 §3.4 allows unescaped in a query) is percent-encoded as UTF-8, so `+`, `&`, `=`, `#`, spaces
    /// and non-ASCII characters can never change the structure of the query.
    package static func escapeQueryComponent(_ text: String) -> String {
        escape(text) { isUnreserved($0) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "/") }
    }

    /// Escapes a path written by the user: characters a path may hold (unreserved, sub-delims, `:` `@` `/`) and
    /// existing `%XX` escapes stay as written; everything else (spaces, non-ASCII, a lone `%`) is percent-encoded.
    static func escapePath(_ text: String) -> String {
        escapeKeepingValidEscapes(text, allowed: isPathByte)
    }

    /// Escapes a query or fragment written by the user, keeping its `&` and `=` structure and valid `%XX` escapes.
    static func escapeQueryOrFragment(_ text: String) -> String {
        escapeKeepingValidEscapes(text) { isPathByte($0) || $0 == UInt8(ascii: "?") }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The sub-delimiters of RFC 3986 §2.2: `! $ & ' ( ) * + , ; =`. A switch, like ``isUnreserved(_:)``: it runs on
    /// every byte of every path, where a search of a string per byte cost more than the rest of the escaping.
    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// What a path may hold unescaped (RFC 3986 §3.3's `pchar` and `/`, `%` aside): the unreserved characters, the
    /// sub-delimiters, `:`, `@` and `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
            || byte == UInt8(ascii: "/")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    private static func escape(_ text: String, allowed: (UInt8) -> Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed(byte) { output.append(byte) } else { appendEscaped(byte, to: &output) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func escapeKeepingValidEscapes(_ text: String, allowed: (UInt8) -> Bool) -> String {
        // The common case, text that needs no escape (`%` is never allowed, so it takes the long way), is not copied.
        let needsNoEscape =
            text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(allowed) } ?? text.utf8.allSatisfy(allowed)
        if needsNoEscape { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                output.append(byte)
            } else if allowed(byte) {
                output.append(byte)
            } else {
                appendEscaped(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
