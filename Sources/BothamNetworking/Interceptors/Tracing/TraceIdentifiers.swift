/// The 16-byte id of a whole trace (W3C Trace Context `trace-id`): never all zeros, written as 32 lowercase hex
/// digits.
package struct TraceID: Sendable, Hashable, CustomStringConvertible {
    /// The first 8 bytes, big-endian.
    package let high: UInt64
    /// The last 8 bytes, big-endian.
    package let low: UInt64

    /// The id of these 16 bytes, or `nil` when they are all zero (an invalid id).
    package init?(high: UInt64, low: UInt64) {
        guard high != 0 || low != 0 else { return nil }
        self.init(checked: high, low: low)
    }

    /// The id of bytes the caller has checked are not all zero.
    init(checked high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses 32 lowercase hex digits; `nil` for anything else and for all zeros.
    package init?(hex: some StringProtocol) {
        let digits = Array(hex.utf8)
        guard digits.count == 32, let high = TraceHex.parse(digits[0..<16]), let low = TraceHex.parse(digits[16..<32])
        else { return nil }
        self.init(high: high, low: low)
    }

    /// The 32 lowercase hex digits.
    package var hex: String { TraceHex.format(high) + TraceHex.format(low) }

    /// The 32 lowercase hex digits.
    package var description: String { hex }
}

/// The 8-byte id of one span (W3C Trace Context `parent-id`, the id of the span a receiver is a child of): never
/// all zeros, written as 16 lowercase hex digits.
package struct SpanID: Sendable, Hashable, CustomStringConvertible {
    /// The 8 bytes, big-endian.
    package let value: UInt64

    /// The id of these 8 bytes, or `nil` for zero (an invalid id).
    package init?(_ value: UInt64) {
        guard value != 0 else { return nil }
        self.init(checked: value)
    }

    /// The id of a value the caller has checked is not zero.
    init(checked value: UInt64) {
        self.value = value
    }

    /// Parses 16 lowercase hex digits; `nil` for anything else and for all zeros.
    package init?(hex: some StringProtocol) {
        let digits = Array(hex.utf8)
        guard digits.count == 16, let value = TraceHex.parse(digits[...]) else { return nil }
        self.init(value)
    }

    /// The 16 lowercase hex digits.
    package var hex: String { TraceHex.format(value) }

    /// The 16 lowercase hex digits.
    package var description: String { hex }
}

/// The W3C Trace Context `trace-flags`: 8 bits, of which only ``sampled`` is defined.
package struct TraceFlags: OptionSet, Sendable, Hashable {
    /// The bits.
    package let rawValue: UInt8

    /// Flags of these bits.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The caller may have recorded the trace (`01`).
    package static let sampled = TraceFlags(rawValue: 0x01)
}

/// Lowercase hex, the only form W3C Trace Context accepts.
enum TraceHex {
    /// `value` as exactly `digits` lowercase hex digits (16 by default).
    static func format(_ value: UInt64, digits: Int = 16) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The value of up to 16 lowercase hex digits; `nil` for an empty slice, more digits or any other byte.
    static func parse(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}
