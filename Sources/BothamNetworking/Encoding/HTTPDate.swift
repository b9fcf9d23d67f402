import Foundation

/// The one HTTP-date parser: RFC 6265bis §5.1.1's cookie-date algorithm, which reads the three forms RFC 9110 §5.6.7
/// requires a recipient to accept — IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) — and the usual variants servers
/// send, always as UTC. It reads bytes, builds no formatter and never traps, whatever the text. It also writes the
/// IMF-fixdate of a time (``imfFixdate(_:)``).
///
/// Cookies' `Expires` (``CookieJar``), `Retry-After` (`RetryAfter`) and the cache (`CachedResponseHead`) use it,
/// hence `package` access.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The date `text` names, or `nil` when it is not a valid date. A two-digit year is 1970–2069 (RFC 6265bis
    /// §5.1.1 step 3, the cookie rule).
    package static func parse(_ text: String) -> Date? {
        parse(text, fullYear: { year, _ in year + (year >= 70 ? 1900 : 2000) })
    }

    /// The date `text` names, read as RFC 9110 §5.6.7 says for a message received at `now`: a two-digit year that
    /// would put the date more than 50 years after `now` is the most recent past year with those digits, so the
    /// year is the latest one with those two digits that is not more than 50 years ahead. `nil` when it is not a
    /// valid date.
    package static func parse(_ text: String, receivedAt now: Date) -> Date? {
        let nowSeconds = wholeSeconds(now)
        let limit = nowSeconds + fiftyYears
        let century = (civil(fromDays: floorDivide(nowSeconds, 86_400)).year + 50) / 100 * 100
        return parse(
            text,
            fullYear: { year, secondsIn in
                var candidate = century + year
                while candidate >= 100, secondsIn(candidate) > limit { candidate -= 100 }
                return candidate
            })
    }

    /// Fifty years of the Gregorian calendar, in seconds (an average year is 365.2425 days).
    private static let fiftyYears = 18_262 * 86_400 + 3 * 3600

    /// The IMF-fixdate (RFC 9110 §5.6.7) of `date`, to the second below it: `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func imfFixdate(_ date: Date) -> String {
        let seconds = wholeSeconds(date)
        let days = floorDivide(seconds, 86_400)
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = dayNames[(days % 7 + 11) % 7]
        return "\(weekday), \(padded(day, 2)) \(monthNames[month - 1]) \(padded(year, 4)) "
            + "\(padded(time / 3600, 2)):\(padded(time / 60 % 60, 2)):\(padded(time % 60, 2)) GMT"
    }

    /// The whole seconds since 1970 of `date`, rounded down, kept within ±10^15 (so any date converts).
    private static func wholeSeconds(_ date: Date) -> Int {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return 0 }
        return Int(min(max(interval, -1e15), 1e15).rounded(.down))
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Reads `text`; `fullYear` turns a year below 100 into a full one, given a function that says when (in seconds
    /// since 1970) the date falls in a candidate year.
    private static func parse(_ text: String, fullYear: (Int, (Int) -> Int) -> Int) -> Date? {
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
        guard (1...31).contains(day), hour <= 23, minute <= 59, second <= 59 else { return nil }
        func seconds(inYear year: Int) -> Int {
            daysFromEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        }
        if year <= 99 { year = fullYear(year, seconds(inYear:)) }
        guard year >= 1601, day <= daysIn(month: month, year: year) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds(inYear: year)))
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

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
