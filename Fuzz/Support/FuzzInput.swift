/// Reads fuzz bytes as a deterministic stream of choices: small numbers, strings and bit patterns.
///
/// Running out of bytes is not an error: every read then returns zero or an empty string, so any input,
/// however short, describes exactly one test case.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Creates a reader over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound` taken from one byte (`bound` is at most 256).
    public mutating func choice(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(byte()) % bound
    }

    /// Eight bytes as a bit pattern (little-endian).
    public mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) {
            value |= UInt64(byte()) << UInt64(shift)
        }
        return value
    }

    /// Up to `maxLength` raw bytes, their count taken from one byte.
    public mutating func chunk(maxLength: Int = 64) -> [UInt8] {
        let length = min(choice(maxLength + 1), bytes.count - min(position, bytes.count))
        defer { position += length }
        return Array(bytes[position..<(position + length)])
    }

    /// A string from up to `maxLength` bytes read as UTF-8 (invalid sequences become U+FFFD), so the fuzzer can
    /// reach every Unicode scalar, controls and NUL included.
    public mutating func string(maxLength: Int = 64) -> String {
        String(decoding: chunk(maxLength: maxLength), as: UTF8.self)
    }

    /// Every byte not read yet.
    public mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[min(position, bytes.count)...])
    }
}
