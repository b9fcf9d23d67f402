import Foundation

/// Joins a base endpoint, a path and parameters into a URL.
enum URLBuilder {
    static func url(baseEndpoint: String, path: String, parameters: HTTPParameters) throws(APIClientError) -> URL {
        let (base, relativePath) = isAbsoluteHTTPURL(path) ? (path, "") : (baseEndpoint, path)
        let endpoint = try ParsedEndpoint.parsed(base)
        let relative = split(relativePath)

        var joinedPath = endpoint.path
        if !relative.path.isEmpty {
            let trimmedBase = joinedPath.hasSuffix("/") ? String(joinedPath.dropLast()) : joinedPath
            joinedPath = trimmedBase + "/" + relative.path.drop { $0 == "/" }
        }
        var queries: [String] = []
        if let query = endpoint.query, !query.isEmpty { queries.append(URLEncoding.escapeQueryOrFragment(query)) }
        if let query = relative.query, !query.isEmpty { queries.append(URLEncoding.escapeQueryOrFragment(query)) }
        if !parameters.isEmpty { queries.append(parameters.percentEncoded) }

        var text = endpoint.origin + URLEncoding.escapePath(joinedPath)
        if !queries.isEmpty { text += "?" + queries.joined(separator: "&") }
        if let fragment = relative.fragment ?? endpoint.fragment {
            text += "#" + URLEncoding.escapeQueryOrFragment(fragment)
        }
        guard let url = URL(string: text) else {
            throw .invalidRequest(reason: "\(DebugText.quoted(text)) is not a valid URL")
        }
        return url
    }

    /// Whether `path` starts with `http://` or `https://`, in any ASCII case, compared byte by byte (no other
    /// character lower-cases to these letters). A combining mark right after the `//` no longer hides the prefix, as
    /// it did when the first eight Characters were compared: such a path is taken as an absolute URL.
    private static func isAbsoluteHTTPURL(_ path: String) -> Bool {
        func hasPrefix(_ prefix: StaticString) -> Bool {
            let bytes = path.utf8
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            return zip(bytes, UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)).allSatisfy
            {
                ($0.0 >= 0x41 && $0.0 <= 0x5A ? $0.0 | 0x20 : $0.0) == $0.1
            }
        }
        return hasPrefix("http://") || hasPrefix("https://")
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without the Foundation call (about a third of a call's cost)
    /// when the text visibly starts and ends with printable ASCII, which no whitespace character is.
    private static func trimmingWhitespace(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        let printableASCII: ClosedRange<UInt32> = 0x21...0x7E
        if printableASCII.contains(first.value), printableASCII.contains(last.value) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The range of the first `://` in ASCII `text`, found by scanning bytes.
    private static func asciiSchemeSeparator(in text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        var start = bytes.startIndex
        while let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")) {
            guard let end = bytes.index(colon, offsetBy: 3, limitedBy: bytes.endIndex) else { return nil }
            if bytes[bytes.index(after: colon)..<end].elementsEqual("//".utf8) { return colon..<end }
            start = bytes.index(after: colon)
        }
        return nil
    }

    /// Splits `path?query#fragment`, by Characters (a `#` or `?` followed by a combining mark is not a delimiter).
    /// ASCII text, where bytes and Characters agree, is scanned by bytes, and comes back uncopied when it has neither.
    private static func split(_ text: String) -> (path: String, query: String?, fragment: String?) {
        let bytes = text.utf8
        // One pass over the bytes (in place when they are contiguous, as a native string's are): whether all are
        // ASCII, and the offset of the first `?` or `#`.
        func scan(_ buffer: some Collection<UInt8>) -> (isASCII: Bool, mark: Int?) {
            var mark: Int?
            for (offset, byte) in buffer.enumerated() {
                if byte >= 0x80 { return (false, nil) }
                if mark == nil, byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { mark = offset }
            }
            return (true, mark)
        }
        let found = bytes.withContiguousStorageIfAvailable { scan($0) } ?? scan(bytes)
        guard found.isASCII else { return splitCharacters(text) }
        guard let offset = found.mark else { return (text, nil, nil) }
        let mark = bytes.index(bytes.startIndex, offsetBy: offset)
        var rest = text[...]
        var fragment: String?
        if let hash = bytes[mark...].firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(text[bytes.index(after: hash)...])
            rest = text[..<hash]
        }
        var query: String?
        if bytes[mark] == UInt8(ascii: "?") {
            query = String(rest[bytes.index(after: mark)...])
            rest = rest[..<mark]
        }
        return (String(rest), query, fragment)
    }

    /// ``split(_:)`` for text that is not all ASCII.
    private static func splitCharacters(_ text: String) -> (path: String, query: String?, fragment: String?) {
        var rest = Substring(text)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        return (String(rest), query, fragment)
    }

    /// A parsed base endpoint: `scheme://authority`, its path, query and fragment.
    private struct ParsedEndpoint: Sendable {
        /// The most endpoints remembered; a client has one, so a process rarely has more than a few.
        static let cacheLimit = 64
        /// Endpoints parsed before, by their text: parsing one (`URLComponents` validates the host) costs more than
        /// the rest of building a URL, and a client's base endpoint never changes. Emptied when full.
        private static let cache = Lock<[String: ParsedEndpoint]>([:])

        var origin: String
        var path: String
        var query: String?
        var fragment: String?

        /// `text` parsed, from the cache when it was parsed before. Texts that fail are not remembered.
        static func parsed(_ text: String) throws(APIClientError) -> ParsedEndpoint {
            if let known = cache.withLock({ $0[text] }) { return known }
            let endpoint = try ParsedEndpoint(parsing: text)
            cache.withLock { cache in
                if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
                cache[text] = endpoint
            }
            return endpoint
        }

        init(parsing text: String) throws(APIClientError) {
            let trimmed = trimmingWhitespace(text)
            // In ASCII text bytes and characters agree, so the scans below may read bytes (several times faster).
            let isASCII = trimmed.utf8.allSatisfy { $0 < 0x80 }
            guard let separator = isASCII ? asciiSchemeSeparator(in: trimmed) : trimmed.range(of: "://") else {
                if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy(\.isLetter),
                    !trimmed[..<colon].isEmpty
                {
                    throw .unsupportedURLScheme(String(trimmed[..<colon]))
                }
                throw .invalidRequest(
                    reason: "the base endpoint \(DebugText.quoted(text)) is not an absolute http(s) URL"
                )
            }
            let scheme = trimmed[..<separator.lowerBound]
            // `http+unix` and `https+unix` name a Unix domain socket (its path percent-encoded as the host), which
            // `NativeHTTPClient` reaches; every transport checks the scheme again.
            guard ["http", "https", "http+unix", "https+unix"].contains(scheme.lowercased()) else {
                throw .unsupportedURLScheme(String(scheme))
            }
            let afterScheme = trimmed[separator.upperBound...]
            let authorityEnd: String.Index
            let hasSpace: Bool
            if isASCII {
                authorityEnd =
                    afterScheme.utf8.firstIndex {
                        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                    }
                    ?? afterScheme.endIndex
                // " " and the ASCII newlines: \n, \u{0B}, \u{0C}, \r.
                hasSpace = afterScheme[..<authorityEnd].utf8.contains { $0 == 0x20 || (0x0A...0x0D).contains($0) }
            } else {
                authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
                hasSpace = afterScheme[..<authorityEnd].contains { $0 == " " || $0.isNewline }
            }
            let authority = afterScheme[..<authorityEnd]
            guard !authority.isEmpty, !hasSpace,
                let components = URLComponents(string: String(trimmed[..<authorityEnd])),
                let host = components.host, !host.isEmpty
            else {
                throw .invalidRequest(reason: "the base endpoint \(DebugText.quoted(text)) has no valid host")
            }
            origin = String(trimmed[..<authorityEnd])
            let parts = split(String(afterScheme[authorityEnd...]))
            path = parts.path
            query = parts.query
            fragment = parts.fragment
        }
    }
}
