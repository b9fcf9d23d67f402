import Foundation

/// What a response says about its budget: how many requests are left and when the budget refills.
package struct RateLimitReading: Sendable, Equatable {
    /// The requests left in the current window.
    package var remaining: Int
    /// How long after the response the budget refills; `nil` when the response does not say.
    package var reset: Duration?

    /// A reading of `remaining` requests left, refilled `reset` after the response.
    package init(remaining: Int, reset: Duration?) {
        self.remaining = remaining
        self.reset = reset
    }

    /// Whether this reading makes a client wait sooner or longer than `other`: fewer requests left, or as many and
    /// a later refill.
    package func isMoreRestrictive(than other: RateLimitReading) -> Bool {
        if remaining != other.remaining { return remaining < other.remaining }
        return (reset ?? .zero) > (other.reset ?? .zero)
    }
}

/// Reads a response's rate-limit fields, in every form servers send; pure, and anything unreadable is ignored:
///
/// - the IETF httpapi draft's structured fields (draft-08 and later): `RateLimit: "default";r=50;t=30` with
///   `RateLimit-Policy: "default";q=100;w=60` (an item without `t` refills within its policy's window `w`);
/// - draft-07's dictionary, `RateLimit: limit=100, remaining=50, reset=30`;
/// - the earlier drafts' separate `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta seconds);
/// - the common vendor fields `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`, whose reset is a
///   Unix time in seconds when it is over 10⁹ (GitHub's), else delta seconds;
/// - OpenAI's `x-ratelimit-remaining-requests` with `x-ratelimit-reset-requests` (a Go duration such as `6m0s`).
///
/// When several are present (several forms, or several policies in one field) the most restrictive wins.
package enum RateLimitHeaders {
    /// A reset over this many seconds is a Unix time, not a delta (10⁹ s is 2001; no window is 31 years long).
    package static let epochThreshold: Double = 1e9
    /// The longest reset kept exact; longer ones are this, so no arithmetic overflows.
    private static let longest: Double = 1e15

    /// The most restrictive reading of `headers`, received at `now` (the wall-clock time a Unix-time reset is
    /// measured from); `nil` when none can be read.
    package static func reading(in headers: HTTPHeaders, now: Date) -> RateLimitReading? {
        var readings: [RateLimitReading] = []
        if let value = joined(headers, "RateLimit") {
            readings += structured(value, policies: joined(headers, "RateLimit-Policy"))
        }
        if let reading = separate(headers, prefix: "RateLimit-", now: nil) { readings.append(reading) }
        if let reading = separate(headers, prefix: "X-RateLimit-", now: now) { readings.append(reading) }
        if let reading = openAI(headers) { readings.append(reading) }
        return mostRestrictive(readings)
    }

    /// The most restrictive of `readings`, or `nil` when there are none.
    package static func mostRestrictive(_ readings: [RateLimitReading]) -> RateLimitReading? {
        readings.reduce(nil) { best, reading in
            guard let best else { return reading }
            return reading.isMoreRestrictive(than: best) ? reading : best
        }
    }

    /// The readings of a `RateLimit` field: draft-08's list of `"name";r=…;t=…` items (with the windows of the
    /// `RateLimit-Policy` items of the same names), or draft-07's `limit=…, remaining=…, reset=…` dictionary.
    package static func structured(_ value: String, policies: String?) -> [RateLimitReading] {
        let members = splitOutsideQuotes(value, at: ",")
        guard let first = members.first, first.hasPrefix("\"") else {
            return draft07(members).map { [$0] } ?? []
        }
        var windows: [String: Duration] = [:]
        for policy in policies.map({ splitOutsideQuotes($0, at: ",") }) ?? [] {
            let (name, parameters) = item(policy)
            if let name, let window = parameters["w"].flatMap(seconds) { windows[name] = window }
        }
        return members.compactMap { member in
            let (name, parameters) = item(member)
            guard let name, let remaining = parameters["r"].flatMap(count) else { return nil }
            return RateLimitReading(remaining: remaining, reset: parameters["t"].flatMap(seconds) ?? windows[name])
        }
    }

    /// Draft-07's dictionary: `remaining` (required) and `reset` (delta seconds).
    private static func draft07(_ members: [String]) -> RateLimitReading? {
        var parameters: [String: String] = [:]
        for member in members {
            let parts = member.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            parameters[parts[0].lowercased()] = parts[1]
        }
        guard let remaining = parameters["remaining"].flatMap(count) else { return nil }
        return RateLimitReading(remaining: remaining, reset: parameters["reset"].flatMap(seconds))
    }

    /// `<prefix>Remaining` with `<prefix>Reset`: delta seconds, or a Unix time measured from `now` when `now` is
    /// given and the value is over ``epochThreshold``. A list value (`50, 50;w=60`) is read by its first element.
    package static func separate(_ headers: HTTPHeaders, prefix: String, now: Date?) -> RateLimitReading? {
        guard let remaining = headers[HTTPFieldName(prefix + "Remaining")].flatMap({ count(firstElement($0)) })
        else { return nil }
        var reset: Duration?
        if let value = headers[HTTPFieldName(prefix + "Reset")], let number = number(firstElement(value)) {
            if let now, number > epochThreshold {
                reset = .seconds(min(max(0, number - now.timeIntervalSince1970), longest))
            } else {
                reset = .seconds(min(number, longest))
            }
        }
        return RateLimitReading(remaining: remaining, reset: reset)
    }

    /// OpenAI's request budget: `x-ratelimit-remaining-requests` with `x-ratelimit-reset-requests`.
    package static func openAI(_ headers: HTTPHeaders) -> RateLimitReading? {
        guard let remaining = headers["x-ratelimit-remaining-requests"].flatMap(count) else { return nil }
        let reset = headers["x-ratelimit-reset-requests"].flatMap(RetryHints.duration)
        return RateLimitReading(remaining: remaining, reset: reset)
    }

    /// The values of every `name` field joined with commas (a list field may be split over several lines).
    private static func joined(_ headers: HTTPHeaders, _ name: HTTPFieldName) -> String? {
        let values = headers.values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ",")
    }

    /// An item's name (its quoted head, unquoted) and its parameters by lower-cased name (the first of each wins).
    private static func item(_ member: String) -> (name: String?, parameters: [String: String]) {
        let (head, list) = FieldParameters.parse(member)
        let trimmed = head.trimmingCharacters(in: .whitespaces)
        let name =
            trimmed.count >= 2 && trimmed.hasPrefix("\"") && trimmed.hasSuffix("\"")
            ? String(trimmed.dropFirst().dropLast()) : nil
        var parameters: [String: String] = [:]
        for parameter in list where parameters[parameter.name] == nil { parameters[parameter.name] = parameter.value }
        return (name, parameters)
    }

    /// `value` split at the separators that are not inside a quoted string.
    private static func splitOutsideQuotes(_ value: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if character == "\\" && inQuotes {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == separator && !inQuotes {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts.filter { !$0.isEmpty }
    }

    /// The first element of a list value, without its parameters: `50` of `50, 50;w=60`.
    private static func firstElement(_ value: String) -> String {
        let element = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(element.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// A count of requests: ASCII digits only (at most 18, so it fits an `Int`).
    private static func count(_ value: String) -> Int? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 18, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return Int(trimmed)
    }

    /// A non-negative, finite number of seconds (digits and at most one decimal point).
    private static func number(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
            let number = Double(trimmed), number.isFinite
        else { return nil }
        return number
    }

    /// ``number(_:)`` as a duration, at most ``longest`` seconds.
    private static func seconds(_ value: String) -> Duration? {
        number(value).map { .seconds(min($0, longest)) }
    }
}
