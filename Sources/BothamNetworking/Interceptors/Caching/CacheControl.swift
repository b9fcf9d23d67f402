/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2), read once.
///
/// - Every `Cache-Control` field of the message counts (§5.2: a list may be split over several fields; RFC 9110
///   §5.3). Directive names are case-insensitive; arguments may be tokens or quoted strings (§5.2: a recipient
///   accepts both forms). An argument separated from its `=` by whitespace, or an unterminated quoted string, is
///   malformed (the grammar allows neither).
/// - A delta-seconds argument (§1.2.1) is one or more digits; any other argument makes the directive invalid, which
///   for `max-age` means the response is stale (§4.2.1: a cache treats invalid freshness information as stale). A
///   value larger than 2^31 reads as 2^31 (§1.2.2).
/// - A directive given more than once with different arguments (`max-age=60, max-age=3600`) is invalid too: §4.2.1
///   lets a cache either use the first or treat the response as stale, and this cache takes the stale reading, the
///   one that never serves a response longer than any of its values allows. Repeating the same value is no
///   conflict. A repeated `no-cache` names the fields of every occurrence, and is unqualified if any one is.
/// - Without any `Cache-Control` field, `Pragma: no-cache` reads as `no-cache` (RFC 9111 §5.4 deprecates `Pragma`
///   but keeps this HTTP/1.0 meaning possible; a `Cache-Control` field, when present, is what counts).
struct CacheControl: Sendable, Hashable {
    /// One occurrence's argument.
    enum Argument: Sendable, Hashable {
        /// The directive had no `=`.
        case none
        /// Its argument, unquoted.
        case value(String)
        /// An argument the grammar does not allow.
        case malformed
    }

    /// A delta-seconds argument read from every occurrence of a directive.
    enum DeltaSeconds: Sendable, Hashable {
        /// The directive is not there.
        case absent
        /// Every occurrence is without an argument (`max-stale`).
        case bare
        /// Every occurrence has this value.
        case value(Double)
        /// An argument is not delta-seconds, or the occurrences disagree.
        case invalid
    }

    /// The directive names, lower-cased, with the argument of each occurrence in order.
    private(set) var directives: [String: [Argument]] = [:]

    /// The directives of every `Cache-Control` field of `headers` (and `Pragma: no-cache` when there is no
    /// `Cache-Control` field, §5.4).
    init(_ headers: HTTPHeaders) {
        let values = headers.values(for: .cacheControl)
        if values.isEmpty {
            if headers.values(for: Self.pragma).contains(where: {
                HTTPFieldList.elements(of: $0).contains("no-cache")
            }) {
                directives["no-cache"] = [.none]
            }
            return
        }
        for value in values { parse(value) }
    }

    static let pragma = HTTPFieldName("Pragma")

    private mutating func parse(_ value: String) {
        for element in Self.splitOutsideQuotes(value) {
            let trimmed = HTTPFieldList.trimmingWhitespace(element[...])
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                directives[trimmed.lowercased(), default: []].append(.none)
                continue
            }
            let rawName = trimmed[..<equals]
            let name = HTTPFieldList.trimmingWhitespace(rawName).lowercased()
            guard !name.isEmpty else { continue }
            let argument = trimmed[trimmed.index(after: equals)...]
            directives[name, default: []].append(
                rawName.last.map(Self.isWhitespace) == true ? .malformed : Self.argument(argument))
        }
    }

    /// The argument after a directive's `=`: a token, or a whole quoted string (unquoted), else malformed.
    private static func argument(_ text: Substring) -> Argument {
        guard let first = text.first, !isWhitespace(first) else { return .malformed }
        guard first == "\"" else { return .value(String(text)) }
        guard text.count >= 2, text.hasSuffix("\""), let body = unquoted(text.dropFirst().dropLast()) else {
            return .malformed
        }
        return .value(body)
    }

    private static func isWhitespace(_ character: Character) -> Bool { character == " " || character == "\t" }

    /// Splits at commas that are not inside a quoted string.
    private static func splitOutsideQuotes(_ value: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                elements.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        elements.append(current)
        return elements
    }

    /// The text of a quoted string's inside, its quoted pairs resolved; `nil` when a quote inside it is not escaped
    /// or it ends in an unfinished escape (the closing quote was escaped).
    private static func unquoted(_ text: Substring) -> String? {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
                continue
            } else if character == "\"" {
                return nil
            }
            result.append(character)
        }
        return escaped ? nil : result
    }

    /// Whether the directive `name` is present (with or without an argument).
    func has(_ name: String) -> Bool { directives[name] != nil }

    /// The delta-seconds argument of `name`, read from all its occurrences.
    func deltaSeconds(_ name: String) -> DeltaSeconds {
        guard let arguments = directives[name] else { return .absent }
        if arguments.allSatisfy({ $0 == .none }) { return .bare }
        var found: Double?
        for argument in arguments {
            guard case .value(let text) = argument, let value = Self.parseDeltaSeconds(text.utf8[...]),
                (found ?? value) == value
            else {
                return .invalid
            }
            found = value
        }
        return found.map { .value($0) } ?? .invalid
    }

    /// `text` as delta-seconds (one or more digits, §1.2.1), at most 2^31 (§1.2.2); `nil` when it is not.
    static func parseDeltaSeconds(_ text: Substring.UTF8View) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let significant = text.drop { $0 == 0x30 }
        // §1.2.2: a value too large to represent is 2^31.
        let maximum = CacheFreshness.maximumDeltaSeconds
        guard significant.count <= 10 else { return maximum }
        return min(Double(significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }), maximum)
    }

    /// The delta-seconds argument of `name`: `nil` when it is absent, without an argument, or invalid.
    func seconds(_ name: String) -> Double? {
        guard case .value(let value) = deltaSeconds(name) else { return nil }
        return value
    }

    /// Whether `name` is present without a valid delta-seconds argument (none, a malformed one, or disagreeing ones).
    func isInvalidSeconds(_ name: String) -> Bool { has(name) && seconds(name) == nil }

    /// The field names of a qualified directive (`no-cache="Set-Cookie, X-Token"`), of every occurrence; empty when
    /// the directive is absent or has no field names.
    func fieldNames(_ name: String) -> [HTTPFieldName] {
        (directives[name] ?? []).flatMap { argument -> [HTTPFieldName] in
            guard case .value(let text) = argument else { return [] }
            return HTTPFieldList.elements(of: text).map { HTTPFieldName($0) }
        }
    }

    /// Whether `name` is present and some occurrence of it names no fields (`no-cache`, `no-cache=""`, or a
    /// malformed argument, read as the stricter unqualified directive), not only `no-cache="Set-Cookie"`.
    func isUnqualified(_ name: String) -> Bool {
        guard let arguments = directives[name] else { return false }
        return arguments.contains { argument in
            guard case .value(let text) = argument else { return true }
            return HTTPFieldList.elements(of: text).isEmpty
        }
    }
}
