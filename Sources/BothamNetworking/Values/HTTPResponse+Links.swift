import Foundation

extension HTTPResponse {
    /// One link of a `Link` header field (RFC 8288): a target URL, its relation types and its other parameters.
    ///
    /// ```swift
    /// // Link: <https://api.github.com/repositories/1/issues?page=2>; rel="next", <…?page=5>; rel="last"
    /// let next = response.link(rel: "next")?.url
    /// ```
    public struct Link: Hashable, Sendable {
        /// The target, resolved against the response's URL (the request's when the response has none).
        public let url: URL
        /// The relation types of the `rel` parameter, lowercased, in order (`rel="next last"` is both); empty when
        /// the link has no `rel`.
        public let relations: [String]
        /// The other parameters (`title`, `type`, `anchor`, …), by lowercased name, unquoted; the first occurrence
        /// of a name wins. A parameter without a value maps to the empty string.
        public let parameters: [String: String]
    }

    /// The links of the response's `Link` header fields, in order: every field, every link of each field. A link
    /// that cannot be parsed ends its field's links (the links before it are kept); a target that is not a URL is
    /// skipped. Parsing never fails.
    public var links: [Link] {
        let base = url ?? request.url
        return headers.values(for: "Link").flatMap { LinkFieldParser.links(in: $0, relativeTo: base) }
    }

    /// The first link whose relation types include `relation` (compared case-insensitively), or `nil`:
    /// `response.link(rel: "next")?.url` is the next page of a paged API.
    public func link(rel relation: String) -> Link? {
        let relation = relation.lowercased()
        return links.first { $0.relations.contains(relation) }
    }
}

/// The parser of one `Link` field value, after RFC 8288 Appendix B.2, over the value's UTF-8 bytes.
package enum LinkFieldParser {
    /// The links of `value`, their targets resolved against `base`.
    package static func links(in value: String, relativeTo base: URL?) -> [HTTPResponse.Link] {
        var reader = Reader(bytes: Array(value.utf8))
        var links: [HTTPResponse.Link] = []
        while true {
            reader.skipWhitespace()
            guard reader.consume(UInt8(ascii: "<")) else { break }
            guard let target = reader.read(until: UInt8(ascii: ">")) else { break }
            _ = reader.consume(UInt8(ascii: ">"))
            let parameters = reader.readParameters()
            var relations: [String]?
            var others: [String: String] = [:]
            for (name, value) in parameters {
                if name == "rel" {
                    if relations == nil {
                        relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(
                            String.init)
                    }
                } else if others[name] == nil {
                    others[name] = value
                }
            }
            let reference = target.trimmingCharacters(in: .whitespaces)
            // An empty reference is the base itself (RFC 3986, section 5.2.2).
            let resolved = reference.isEmpty ? base : URL(string: reference, relativeTo: base)?.absoluteURL
            if let url = resolved, url.scheme != nil {
                links.append(HTTPResponse.Link(url: url, relations: relations ?? [], parameters: others))
            }
            // Whatever follows the parameters, up to the next comma, is not part of this link.
            reader.skip(through: UInt8(ascii: ","))
        }
        return links
    }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        /// The text up to (not including) `end`, or `nil` when `end` never comes.
        mutating func read(until end: UInt8) -> String? {
            guard let stop = bytes[index...].firstIndex(of: end) else { return nil }
            let text = String(decoding: bytes[index..<stop], as: UTF8.self)
            index = stop
            return text
        }

        /// Skips past the next `byte` outside a quoted string, or to the end.
        mutating func skip(through byte: UInt8) {
            while let current {
                index += 1
                if current == byte { return }
                if current == UInt8(ascii: "\"") { _ = readQuotedRest() }
            }
        }

        /// The `; name[=value]` parameters, names lowercased.
        mutating func readParameters() -> [(String, String)] {
            var parameters: [(String, String)] = []
            while true {
                skipWhitespace()
                guard consume(UInt8(ascii: ";")) else { return parameters }
                skipWhitespace()
                let name = readToken().lowercased()
                skipWhitespace()
                var value = ""
                if consume(UInt8(ascii: "=")) {
                    skipWhitespace()
                    value = consume(UInt8(ascii: "\"")) ? readQuotedRest() : readToken()
                }
                if !name.isEmpty { parameters.append((name, value)) }
            }
        }

        /// Characters up to whitespace, `=`, `;` or `,`.
        mutating func readToken() -> String {
            let start = index
            while let byte = current, !Self.tokenEnds.contains(byte) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// The rest of a quoted string whose opening quote was read, backslash escapes undone; up to the end of the
        /// value when the closing quote is missing.
        mutating func readQuotedRest() -> String {
            var text: [UInt8] = []
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\"), let escaped = current {
                    index += 1
                    text.append(escaped)
                } else {
                    text.append(byte)
                }
            }
            return String(decoding: text, as: UTF8.self)
        }

        static let tokenEnds: Set<UInt8> = [
            UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ","),
        ]
    }
}
