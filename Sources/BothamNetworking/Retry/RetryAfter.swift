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
        guard let date = httpDate(trimmed, receivedAt: now) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .seconds(interval) : .zero
    }

    /// Parses an HTTP-date with ``HTTPDate``: the IMF-fixdate form and, as RFC 9110 §5.6.7 requires of recipients,
    /// the obsolete RFC 850 and asctime forms (and the variants ``HTTPDate`` reads), always as UTC. Anything but
    /// printable ASCII is no HTTP-date. With `now`, a two-digit year (RFC 850 form) is the latest year with those
    /// digits not more than 50 years after `now` (RFC 9110 §5.6.7).
    package static func httpDate(_ text: String, receivedAt now: Date? = nil) -> Date? {
        // Every form is printable ASCII (RFC 9110 §5.6.7). The check dates from when a `DateFormatter` parsed these
        // values: on Linux (swift-corelibs-foundation) it trapped on a string whose parsed range ended inside a
        // character, such as one with a combining mark in the time (found by Fuzz/FuzzRetryAfter;
        // RetryAfterFuzzFindingsTests). `HTTPDate` reads bytes and cannot trap, but a header value that is not
        // printable ASCII is still no date.
        guard text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        guard let now else { return HTTPDate.parse(text) }
        return HTTPDate.parse(text, receivedAt: now)
    }
}
