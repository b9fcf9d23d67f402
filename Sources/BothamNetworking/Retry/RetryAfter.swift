import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): delta-seconds (`120`) or an HTTP-date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`).
package enum RetryAfter {
    /// The delay a `Retry-After` value asks for, measured from `now`; `nil` when the value is neither form. A date in
    /// the past means no delay.
    package static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Very long digit strings do not fit an Int: treat them as "a very long time".
            return .seconds(Int(trimmed) ?? Int.max)
        }
        guard let date = httpDate(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .seconds(interval) : .zero
    }

    /// Parses an HTTP-date: the IMF-fixdate form and, as RFC 9110 requires of recipients, the obsolete RFC 850 and
    /// asctime forms. Anything but printable ASCII is no HTTP-date.
    package static func httpDate(_ text: String) -> Date? {
        // Every form is printable ASCII (RFC 9110 §5.6.7). Nothing else reaches `DateFormatter`, which on Linux
        // (swift-corelibs-foundation) traps on a string whose parsed range ends inside a character, such as one
        // with a combining mark in the time: a server could crash the process with one header (found by
        // Fuzz/FuzzRetryAfter; RetryAfterFuzzFindingsTests).
        guard text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss zzz",  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",  // asctime: Sun Nov  6 08:49:37 1994
    ]
}
