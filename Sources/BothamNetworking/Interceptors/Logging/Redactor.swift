import Foundation

/// Hides secrets before anything is printed: header values, query parameter values and URL passwords.
///
/// Shared by ``LoggingInterceptor``, ``HTTPRequest/cURLDescription(redactor:)`` and anything else that prints
/// requests. By default it hides `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`; add your own:
///
/// ```swift
/// let redactor = Redactor(headerNames: ["X-Api-Key"], queryParameterNames: ["access_token"])
/// ```
///
/// Header and parameter names compare ignoring case. Bodies are not redacted.
public struct Redactor: Sendable, Hashable {
    /// The headers every redactor hides unless built with ``none``.
    public static let defaultHeaderNames: Set<HTTPFieldName> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie,
    ]

    /// Header names whose values are hidden.
    public var headerNames: Set<HTTPFieldName>
    /// Query parameter names (lower-cased) whose values are hidden.
    public private(set) var queryParameterNames: Set<String>
    /// What replaces a hidden value. Default `REDACTED` (safe in URLs, headers and shell commands).
    public var replacement: String

    /// A redactor hiding the default headers plus `headerNames`, and the query parameters `queryParameterNames`.
    public init(
        headerNames: Set<HTTPFieldName> = [],
        queryParameterNames: Set<String> = [],
        replacement: String = "REDACTED"
    ) {
        self.headerNames = Self.defaultHeaderNames.union(headerNames)
        self.queryParameterNames = Set(queryParameterNames.map { $0.lowercased() })
        self.replacement = replacement
    }

    /// The default redactor.
    public static let `default` = Redactor()

    /// Hides nothing. Only for local debugging: output made with it contains secrets.
    public static let none = Redactor(exactHeaderNames: [], queryParameterNames: [])

    private init(exactHeaderNames: Set<HTTPFieldName>, queryParameterNames: Set<String>) {
        headerNames = exactHeaderNames
        self.queryParameterNames = queryParameterNames
        replacement = "REDACTED"
    }

    /// A copy that also hides these query parameters.
    public func redactingQueryParameters(_ names: Set<String>) -> Redactor {
        var copy = self
        copy.queryParameterNames.formUnion(names.map { $0.lowercased() })
        return copy
    }

    /// Whether values of this header are hidden.
    public func redacts(header name: HTTPFieldName) -> Bool {
        headerNames.contains(name)
    }

    /// Whether values of this query parameter are hidden.
    public func redacts(queryParameter name: String) -> Bool {
        queryParameterNames.contains(name.lowercased())
    }

    /// The headers with hidden values replaced.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.fields.map { field in
                redacts(header: field.name) ? HTTPHeaders.Field(name: field.name, value: replacement) : field
            }
        )
    }

    /// The URL as text with hidden query values and any password in the user information replaced.
    public func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        if components.percentEncodedPassword != nil {
            components.percentEncodedPassword = replacement
        }
        if let query = components.percentEncodedQuery, !queryParameterNames.isEmpty {
            components.percentEncodedQuery = redact(percentEncodedQuery: query)
        }
        return components.string ?? url.absoluteString
    }

    /// The URL of `request` as text, redacted; for a request whose URL does not resolve, its endpoint and path
    /// (with control characters escaped).
    public func redactedURL(of request: HTTPRequest) -> String {
        guard let url = request.url else { return DebugText.printable(request.baseEndpoint + request.path) }
        return redact(url)
    }

    private func redact(percentEncodedQuery query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let name = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? rawName
            guard redacts(queryParameter: name) else { return String(pair) }
            return rawName + "=" + replacement
        }.joined(separator: "&")
    }
}
