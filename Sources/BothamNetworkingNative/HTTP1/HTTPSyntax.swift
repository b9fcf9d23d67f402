/// The bytes of HTTP/1.1 framing (RFC 9112) that the response parser and the request serializer name: line ends,
/// the separators of the status line, fields and chunk sizes, and chunk sizes' hexadecimal digits.
///
/// What is not HTTP/1-specific lives in the core and is shared: tokens are `HTTPToken` (`package`), list-valued
/// fields `HTTPFieldList`.
enum HTTPSyntax {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58
    static let semicolon: UInt8 = 59

    /// The value of a hexadecimal digit of a chunk size, or `nil`.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
