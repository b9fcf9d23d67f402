import BothamNetworking
import Foundation
import FuzzSupport

/// Properties of the `Retry-After` parser (RFC 9110 §10.2.3), for any header value a server could send:
///
/// - it never traps (on Linux, `DateFormatter` itself traps on some strings that are not ASCII, such as one with a
///   combining mark in the time; such a value must never reach it), and anything but printable ASCII is no
///   HTTP-date;
/// - a delay is never negative;
/// - a value of digits only (white space around it allowed) is that many seconds, or `Int.max` seconds when it does
///   not fit an `Int`;
/// - any instant from 1970 to 9999, written as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), parses back to that
///   instant, and its delay is the time from `now` to it (none for an instant in the past).
enum RetryAfterCheck {
    private static let now = Date(timeIntervalSince1970: 1_790_000_000)

    private static let imfFixdate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        let delay = RetryAfter.delay(from: value, now: now)
        if let delay { fuzzExpect(delay >= .zero, "\(delay) for \(Array(value.utf8))") }
        if !value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            fuzzExpect(RetryAfter.httpDate(value) == nil, "\(Array(value.utf8)) is not printable ASCII")
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            fuzzExpect(delay == .seconds(Int(trimmed) ?? Int.max), "\(String(describing: delay)) for \(trimmed)")
        }

        var input = FuzzInput(bytes)
        let instant = Double(input.word() % 253_402_300_800)  // whole seconds, 1970-01-01 to 9999-12-31
        let date = Date(timeIntervalSince1970: instant)
        let text = imfFixdate.string(from: date)
        let parsed = RetryAfter.httpDate(text)
        fuzzExpect(parsed == date, "\(text) parses as \(String(describing: parsed)), not \(date)")
        let expected: Duration = instant > now.timeIntervalSince1970 ? .seconds(date.timeIntervalSince(now)) : .zero
        let padded = String(repeating: " ", count: input.choice(3)) + text
        fuzzExpect(RetryAfter.delay(from: padded, now: now) == expected, "the delay of \(padded)")
    }
}
