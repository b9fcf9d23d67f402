/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2), read once.
///
/// Every `Cache-Control` field of the message counts (§5.2: a list may be split over several fields). Directive
/// names are case-insensitive; arguments may be tokens or quoted strings (§5.2: a recipient accepts both forms).
/// A delta-seconds argument that is not a non-negative integer makes the directive invalid, which for `max-age` means
/// the response is stale (§4.2.1: a cache treats an invalid freshness directive as stale); a value larger than
/// 2^31 reads as 2^31 (§1.2.2).
struct CacheControl: Sendable, Hashable {
    /// The directive names, lower-cased, with their argument (unquoted) when they have one.
    private(set) var directives: [String: String?] = [:]
    /// Directives whose delta-seconds argument did not parse.
    private(set) var invalid: Set<String> = []

    /// The directives of every `Cache-Control` field of `headers` (and `Pragma: no-cache` when there is no
    /// `Cache-Control` field, §5.4).
    init(_ headers: HTTPHeaders) {
        let values = headers.values(for: .cacheControl)
        if values.isEmpty {
            if headers.values(for: Self.pragma).contains(where: {
                HTTPFieldList.elements(of: $0).contains("no-cache")
            }) {
                directives["no-cache"] = .some(nil)
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
            if let equals = trimmed.firstIndex(of: "=") {
                let name = HTTPFieldList.trimmingWhitespace(trimmed[..<equals]).lowercased()
                var argument = String(HTTPFieldList.trimmingWhitespace(trimmed[trimmed.index(after: equals)...]))
                if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                    argument = Self.unquoted(argument.dropFirst().dropLast())
                }
                // The first occurrence wins (a duplicate directive is ignored).
                if directives[name] == nil { directives[name] = .some(argument) }
            } else {
                let name = trimmed.lowercased()
                if directives[name] == nil { directives[name] = .some(nil) }
            }
        }
    }

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

    private static func unquoted(_ text: Substring) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }

    /// Whether the directive `name` is present (with or without an argument).
    func has(_ name: String) -> Bool { directives[name] != nil }

    /// The delta-seconds argument of `name`: `nil` when it is absent or invalid.
    func seconds(_ name: String) -> Double? {
        guard let entry = directives[name], let argument = entry, !argument.isEmpty,
            argument.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        // §1.2.2: a value too large to represent is 2^31.
        let maximum = CacheFreshness.maximumDeltaSeconds
        guard argument.utf8.count <= 10, let value = Int(argument) else { return maximum }
        return min(Double(value), maximum)
    }

    /// Whether `name` is present with an argument that is not valid delta-seconds.
    func isInvalidSeconds(_ name: String) -> Bool { has(name) && seconds(name) == nil }

    /// The field names of a qualified directive (`no-cache="Set-Cookie, X-Token"`), lower-cased; empty when the
    /// directive is unqualified or absent.
    func fieldNames(_ name: String) -> [HTTPFieldName] {
        guard let entry = directives[name], let argument = entry else { return [] }
        return HTTPFieldList.elements(of: argument).map { HTTPFieldName($0) }
    }

    /// Whether `name` is present without field names (`no-cache`, not `no-cache="Set-Cookie"`).
    func isUnqualified(_ name: String) -> Bool {
        guard let entry = directives[name] else { return false }
        return entry.map(\.isEmpty) ?? true
    }
}
