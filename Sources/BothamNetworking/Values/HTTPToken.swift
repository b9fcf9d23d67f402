/// The character classes of RFC 9110 that methods, header fields and their parsers are checked against: the one
/// token validator of the package (the native transport's response parser and MockWebServer's request parser use it
/// too, hence `package` access).
package enum HTTPToken {
    /// `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`
    @inlinable
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    // One overload per kind of bytes the package checks, each compiled for its concrete type: a generic
    // `some Collection<UInt8>` left the native response parser, in another module, calling the unspecialized body
    // (a protocol-witness call per byte, about 60,000 instructions per response head; BENCHMARKS.md, 2026-12-01).
    /// Whether `bytes` is a token: one or more `tchar`s (a method, a header field name, a parameter name).
    @inlinable
    package static func isToken(_ bytes: String.UTF8View) -> Bool {
        // A native string's bytes are contiguous: scanning the buffer skips the UTF8View's per-byte index checks.
        if let isToken = bytes.withContiguousStorageIfAvailable({ isToken($0) }) { return isToken }
        return !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    /// Whether `bytes` (a slice of a parser's line buffer) is a token: one or more `tchar`s.
    @inlinable
    package static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    /// Whether `bytes` (a parser's line buffer, read in place) is a token: one or more `tchar`s.
    @inlinable
    package static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    /// A field value may hold visible characters, spaces, horizontal tabs and obs-text (bytes ≥ 0x80), but never
    /// CR, LF, NUL or another control character.
    @inlinable
    package static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }
}
