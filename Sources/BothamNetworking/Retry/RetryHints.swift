import Foundation

/// The waits a response asks for before the next attempt, read in this order (the first present and readable wins):
///
/// 1. `retry-after-ms`: milliseconds, possibly fractional (sent by OpenAI-style APIs, more precise than the next);
/// 2. `Retry-After` (RFC 9110 §10.2.3): delta-seconds or an HTTP-date (``RetryAfter``);
/// 3. on a 429 only, OpenAI's documented rate-limit reset fields `x-ratelimit-reset-requests` and
///    `x-ratelimit-reset-tokens`, Go-style durations (`6m0s`, `1.5s`, `20ms`): the one whose
///    `x-ratelimit-remaining-*` is `0`, or the longest when none says so.
package enum RetryHints {
    /// The wait `response` asks for, measured from `now`; `nil` when it asks for none that can be read.
    package static func delay(in response: HTTPResponse, now: Date) -> Duration? {
        let headers = response.headers
        if let value = headers["retry-after-ms"], let delay = milliseconds(value) { return delay }
        if let value = headers[.retryAfter], let delay = RetryAfter.delay(from: value, now: now) { return delay }
        guard response.statusCode == 429 else { return nil }
        let resets = ["requests", "tokens"].compactMap { budget -> (delay: Duration, spent: Bool)? in
            guard let value = headers[HTTPFieldName("x-ratelimit-reset-\(budget)")], let delay = duration(value) else {
                return nil
            }
            let remaining = headers[HTTPFieldName("x-ratelimit-remaining-\(budget)")]?.trimmingCharacters(
                in: .whitespaces)
            return (delay, remaining == "0")
        }
        let spent = resets.filter(\.spent)
        return (spent.isEmpty ? resets : spent).map(\.delay).max()
    }

    /// The longest hint kept exact; longer ones are this (beyond any sensible ceiling) so no arithmetic overflows.
    private static let longest: Double = 1e15

    /// A `retry-after-ms` value: a non-negative, finite number of milliseconds.
    package static func milliseconds(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
            let milliseconds = Double(trimmed), milliseconds.isFinite
        else { return nil }
        return .seconds(min(milliseconds / 1_000, longest))
    }

    /// A Go-style duration (`6m0s`, `1.5s`, `20ms`, `1h2m3.5s`): decimal numbers each followed by a unit among
    /// `h`, `m`, `s`, `ms`, `us`/`µs`, `ns`; a lone `0` is zero. `nil` for anything else.
    package static func duration(_ value: String) -> Duration? {
        var rest = Substring(value.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { return nil }
        if rest == "0" { return .zero }
        var seconds = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isWholeNumber || $0 == ".") }
            guard !number.isEmpty, let amount = Double(number), amount.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let scale: Double
            switch unit {
            case "h": scale = 3_600
            case "m": scale = 60
            case "s": scale = 1
            case "ms": scale = 1e-3
            case "us", "µs": scale = 1e-6
            case "ns": scale = 1e-9
            default: return nil
            }
            seconds += amount * scale
        }
        guard seconds.isFinite else { return nil }
        return .seconds(min(seconds, longest))
    }
}
