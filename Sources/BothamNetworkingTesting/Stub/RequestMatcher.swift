import BothamNetworking
import Foundation

/// A predicate on requests with a description, used to choose a stub.
///
/// ```swift
/// stubClient.stub(.method(.get) && .path("/issues") && .query("state", "open"), with: .json(["id": 1]))
/// ```
public struct RequestMatcher: Sendable, CustomStringConvertible {
    /// What the matcher accepts, for failure messages.
    public let description: String
    private let predicate: @Sendable (HTTPRequest) -> Bool

    /// A matcher from a predicate and its description.
    public init(_ description: String, _ predicate: @escaping @Sendable (HTTPRequest) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Whether `request` matches.
    package func matches(_ request: HTTPRequest) -> Bool {
        predicate(request)
    }

    /// Matches every request.
    public static let any = RequestMatcher("any request") { _ in true }

    /// Matches the method.
    public static func method(_ method: HTTPMethod) -> RequestMatcher {
        RequestMatcher("method \(method)") { $0.method == method }
    }

    /// Matches the path: either the path the request was made with (without its query), or the whole path of the
    /// resolved URL, so `.path("/issues")` and `.path("/repos/Karumi/BothamNetworking/issues")` both match
    /// `GET /issues` on a client whose base endpoint is `https://api.github.com/repos/Karumi/BothamNetworking`.
    ///
    /// - The comparison is exact: never a prefix (`.path("/issues")` does not match `/issues/1`), case counts, and
    ///   so does a trailing `/`. Use ``init(_:_:)`` with your own predicate for patterns.
    /// - The query is ignored (the one in the path and `HTTPRequest.parameters` alike): add ``query(_:_:)``.
    /// - The request's own path is compared as written (`/files/a%20b`); the URL's path is compared
    ///   percent-decoded (`/v1/files/a b`), as `URL.path` gives it.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("path \(path)") { request in
            let ownPath = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            return ownPath.map(String.init) == path || request.url?.path == path
        }
    }

    /// Matches the whole resolved URL, query included.
    public static func url(_ url: String) -> RequestMatcher {
        RequestMatcher("URL \(url)") { $0.url?.absoluteString == url }
    }

    /// Matches a query item of the resolved URL (`value` `nil`: the name is present with any value).
    public static func query(_ name: String, _ value: String? = nil) -> RequestMatcher {
        RequestMatcher("query \(name)=\(value ?? "*")") { request in
            guard let url = request.url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
            else { return false }
            return items.contains { $0.name == name && (value == nil || ($0.value ?? "") == value) }
        }
    }

    /// Matches a header field (`value` `nil`: present with any value). Names ignore case.
    public static func header(_ name: HTTPFieldName, _ value: String? = nil) -> RequestMatcher {
        RequestMatcher("header \(name): \(value ?? "*")") { request in
            request.headers.values(for: name).contains { value == nil || $0 == value }
        }
    }

    /// Matches the body bytes as sent.
    public static func body(_ data: Data) -> RequestMatcher {
        RequestMatcher("body of \(data.count) bytes") { (try? $0.bodyData()) == data }
    }

    /// Matches a JSON body equal to `value` (object member order ignored).
    public static func jsonBody(_ value: JSONValue) -> RequestMatcher {
        RequestMatcher("JSON body \(value)") { request in
            guard let data = try? request.bodyData(), let sent = JSONValue(jsonData: data),
                let expected = (try? value.encoded()).flatMap(JSONValue.init(jsonData:))
            else { return false }
            return sent == expected
        }
    }

    /// Matches when both matchers match.
    public static func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("\(lhs.description) and \(rhs.description)") { lhs.matches($0) && rhs.matches($0) }
    }

    /// Matches when either matcher matches.
    public static func || (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("(\(lhs.description) or \(rhs.description))") { lhs.matches($0) || rhs.matches($0) }
    }
}
