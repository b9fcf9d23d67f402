import Foundation

/// Resolves a URI reference against a base URI exactly as RFC 3986 §5.2 says (the algorithm of §5.2.2, path merging
/// of §5.2.3 and dot-segment removal of §5.2.4), for `Location` values: a query-only `?x=1` keeps the base path, a
/// fragment-only `#f` keeps the base path and query, `//host/p` keeps the scheme, and `..` never climbs above the root.
///
/// Foundation's own resolution differs in corner cases and FoundationNetworking's redirect resolution differs more
/// (a query-only `Location` lost the path), so both transports resolve with this.
package enum URIReference {
    /// The components of a URI reference, split as RFC 3986 Appendix B does (`nil`: absent, `""`: present and empty).
    struct Parts: Equatable {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        /// Splits `reference` with the grammar of Appendix B:
        /// `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`.
        init(_ reference: String) {
            var rest = Substring(reference)
            if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
                !rest[..<colon].contains(where: { "/?#".contains($0) })
            {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
                let end = rest[afterSlashes...].firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
                authority = String(rest[afterSlashes..<end])
                rest = rest[end...]
            }
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            path = String(rest)
        }

        /// Recomposes the parts as §5.3 says.
        var string: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    /// `reference` resolved against `base` (an absolute URI), as a string.
    package static func resolve(_ reference: String, against base: String) -> String {
        let r = Parts(reference)
        let b = Parts(base)
        var t = Parts(scheme: nil, authority: nil, path: "", query: nil, fragment: r.fragment)
        if let scheme = r.scheme {
            t.scheme = scheme
            t.authority = r.authority
            t.path = removeDotSegments(r.path)
            t.query = r.query
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = removeDotSegments(r.path)
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else {
                    t.path =
                        r.path.hasPrefix("/") ? removeDotSegments(r.path) : removeDotSegments(merge(base: b, r.path))
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        return t.string
    }

    /// `reference` resolved against `base` as a `URL`, or `nil` when the result is not a valid URL.
    package static func resolve(_ reference: String, against base: URL) -> URL? {
        URL(string: resolve(reference, against: base.absoluteString))
    }

    /// §5.2.3: the reference's path appended to the base path without its last segment.
    static func merge(base: Parts, _ path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// §5.2.4: removes `.` and `..` segments.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // The first segment, with its leading "/" if any, up to (not including) the next "/".
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
