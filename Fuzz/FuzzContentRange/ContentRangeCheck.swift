import BothamNetworking
import FuzzSupport

/// Properties of the `Content-Range` parser that segmented downloads trust (`bytes first-last/total` of a `206`), for
/// any field value:
///
/// - it never traps; a parsed range has `0 <= first <= last` and `total > 0` (whether `last < total` holds is the
///   caller's check, made before any `last + 1`), and the value starts with `bytes ` after leading spaces;
/// - a parsed range written back as `bytes first-last/total` parses to the same range;
/// - for any three 64-bit numbers, `bytes a-b/c` (with spaces the parser allows) parses exactly when
///   `0 <= a <= b` and `c > 0`, to those numbers.
enum ContentRangeCheck {
    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        if let range = ContentRange(value) {
            fuzzExpect(range.first >= 0 && range.first <= range.last, "\(range) from \(Array(value.utf8))")
            fuzzExpect(range.total > 0, "\(range) from \(Array(value.utf8))")
            fuzzExpect(value.drop { $0 == " " }.hasPrefix("bytes "), "\(range) from \(Array(value.utf8))")
            let canonical = "bytes \(range.first)-\(range.last)/\(range.total)"
            fuzzExpect(ContentRange(canonical) == range, "\(canonical) reads back differently")
        }

        var input = FuzzInput(bytes)
        let first = Int64(bitPattern: input.word()) >> input.choice(64)
        let last = Int64(bitPattern: input.word()) >> input.choice(64)
        let total = Int64(bitPattern: input.word()) >> input.choice(64)
        let leading = String(repeating: " ", count: input.choice(3))
        let aroundTotal = String(repeating: " ", count: input.choice(2))
        let field = leading + "bytes \(first)-\(last)/" + aroundTotal + "\(total)" + aroundTotal
        let parsed = ContentRange(field)
        if first >= 0, first <= last, total > 0 {
            fuzzExpect(
                parsed?.first == first && parsed?.last == last && parsed?.total == total,
                "\(field) parses as \(String(describing: parsed))")
        } else {
            fuzzExpect(parsed == nil, "\(field) parses as \(String(describing: parsed))")
        }
    }
}
