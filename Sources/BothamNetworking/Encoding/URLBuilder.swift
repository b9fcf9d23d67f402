import Foundation

/// Joins a base endpoint, a path and parameters into a URL.
enum URLBuilder {
    static func url(baseEndpoint: String, path: String, parameters: HTTPParameters) throws(APIClientError) -> URL {
        let (base, relativePath) = isAbsoluteHTTPURL(path) ? (path, "") : (baseEndpoint, path)
        let endpoint = try Endpoint(parsing: base)
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

    private static func isAbsoluteHTTPURL(_ path: String) -> Bool {
        let lowered = path.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Splits `path?query#fragment`.
    private static func split(_ text: String) -> (path: String, query: String?, fragment: String?) {
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
    private struct Endpoint {
        var origin: String
        var path: String
        var query: String?
        var fragment: String?

        init(parsing text: String) throws(APIClientError) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let separator = trimmed.range(of: "://") else {
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
            guard ["http", "https"].contains(scheme.lowercased()) else {
                throw .unsupportedURLScheme(String(scheme))
            }
            let afterScheme = trimmed[separator.upperBound...]
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
            let authority = afterScheme[..<authorityEnd]
            guard !authority.isEmpty, !authority.contains(where: { $0 == " " || $0.isNewline }),
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
