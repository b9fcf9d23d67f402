/// Validates UTF-8 (RFC 3629) incrementally, a chunk at a time, so a text message split anywhere, even inside a
/// character, is rejected at its first invalid byte rather than at its end.
///
/// Overlong forms, surrogates (U+D800–U+DFFF) and code points above U+10FFFF are invalid.
package struct UTF8Validator: Sendable, Equatable {
    /// Continuation bytes still expected by the current character.
    private var remaining = 0
    /// The range the next continuation byte must be in (narrower than 0x80–0xBF right after some lead bytes).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at the start of a text.
    package init() {}

    /// Whether the bytes so far end on a character boundary (so the text, if it ends here, is valid).
    package var isAtBoundary: Bool { remaining == 0 }

    /// Reads `bytes`; false as soon as one is invalid where it stands (the validator must then not be reused).
    package mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
        if let result = bytes.withContiguousStorageIfAvailable({ validate(buffer: $0) }) { return result }
        return validate(sequence: bytes)
    }

    /// Contiguous bytes: runs of ASCII are skipped eight bytes at a time between characters.
    private mutating func validate(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < buffer.count {
            if remaining == 0 {
                while index + 8 <= buffer.count
                    && raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < buffer.count else { break }
            }
            let end = min(buffer.count, index + 8)
            guard validate(sequence: UnsafeBufferPointer(rebasing: buffer[index..<end])) else { return false }
            index = end
        }
        return true
    }

    private mutating func validate(sequence bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if remaining == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF:
                    remaining = 1
                    lower = 0x80
                    upper = 0xBF
                case 0xE0:
                    remaining = 2
                    lower = 0xA0
                    upper = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF:
                    remaining = 2
                    lower = 0x80
                    upper = 0xBF
                case 0xED:
                    remaining = 2
                    lower = 0x80
                    upper = 0x9F
                case 0xF0:
                    remaining = 3
                    lower = 0x90
                    upper = 0xBF
                case 0xF1...0xF3:
                    remaining = 3
                    lower = 0x80
                    upper = 0xBF
                case 0xF4:
                    remaining = 3
                    lower = 0x80
                    upper = 0x8F
                default:
                    return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Whether `bytes` are, whole, valid UTF-8.
    package static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isAtBoundary
    }
}
