import Foundation

/// The one HTTP-date parser: RFC 6265bis §5.1.1's cookie-date algorithm, which reads the three forms RFC 9110 §5.6.7
/// requires a recipient to accept — IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) — and the usual variants servers
/// send, always as UTC. It reads bytes, builds no formatter and never traps, whatever the text.
///
/// Cookies' `Expires` (``CookieJar``) and `Retry-After` (`RetryAfter`) both use it, hence `package` access.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is not a valid date. A two-digit year is 1970–2069 (§5.1.1 step 3).
    package static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: text) {
            if time == nil, let found = self.time(token) {
                time = found
            } else if day == nil, let found = digits(token, count: 1...2) {
                day = found
            } else if month == nil, let found = self.month(token) {
                month = found
            } else if year == nil, let found = digits(token, count: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        let (hour, minute, second) = time
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// §5.1.1's date-tokens: runs of non-delimiters.
    private static func tokens(of text: String) -> [Substring.UTF8View] {
        text.utf8.split(whereSeparator: isDelimiter)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// 1 to `count` digits, optionally followed by non-digits (which are ignored), as the grammar allows.
    private static func digits(_ token: Substring.UTF8View, count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix(while: isDigit)
        guard count.contains(leading.count) else { return nil }
        if leading.count < token.count, let next = token.dropFirst(leading.count).first, isDigit(next) { return nil }
        return leading.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `h[h]:m[m]:s[s]`, optionally followed by non-digits.
    private static func time(_ token: Substring.UTF8View) -> (Int, Int, Int)? {
        let parts = token.split(separator: 0x3A, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let hour = digits(parts[0], count: 1...2), parts[0].allSatisfy(isDigit),
            let minute = digits(parts[1], count: 1...2), parts[1].allSatisfy(isDigit),
            let second = digits(parts[2], count: 1...2)
        else { return nil }
        return (hour, minute, second)
    }

    private static func month(_ token: Substring.UTF8View) -> Int? {
        guard token.count >= 3 else { return nil }
        let name = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: name).map { $0 + 1 }
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
