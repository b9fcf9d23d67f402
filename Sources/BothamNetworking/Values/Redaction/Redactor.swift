import Foundation

/// Hides secrets before anything is printed: header values, query parameter values, URL passwords and the values of
/// named fields in JSON and form bodies.
///
/// Shared by ``LoggingInterceptor``, ``HTTPRequest/cURLDescription(redactor:)`` and every `description`,
/// `debugDescription` and `customMirror` of the values (``HTTPRequest``, ``HTTPResponse``, ``HTTPHeaders``,
/// ``HTTPHeaders/Field``, ``HTTPBody``), which use ``default``: `print`, `debugPrint`, `dump`, string
/// interpolation and a debugger never show a credential.
///
/// By default it hides:
/// - the headers named in `defaultHeaderNames`: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
///   `X-Api-Key`, `Api-Key`, `X-Auth-Token` and `X-Amz-Security-Token`;
/// - every header whose name contains, ignoring case, one of `defaultHeaderNameFragments`: `token`, `secret`,
///   `password`, `signature`, `api-key` or `apikey` (so `X-CSRF-Token`, `X-Client-Secret`, `X-Goog-Api-Key` and
///   `X-Signature` are hidden too);
/// - the body fields `password`, `client_secret`, `access_token`, `refresh_token` and `id_token`.
///
/// - the query parameters named in `defaultQueryParameterNames` (`access_token`, `api_key`, `X-Amz-Signature`,
///   `X-Amz-Security-Token`, `sig`… — the ones that make a URL a credential, such as a presigned URL), compared by
///   exact name ignoring case: a `continuation-token` or `page_token` stays visible, so pagination can be debugged.
///
/// Add your own:
///
/// ```swift
/// let redactor = Redactor(
///     headerNames: ["X-Api-Key"], queryParameterNames: ["access_token"], bodyFieldNames: ["pin", "card_number"])
/// ```
///
/// Header, parameter and field names compare ignoring case. A body field is hidden wherever it is a member name —
/// at any depth of a JSON body, inside objects and arrays, whatever its value (an object is hidden whole) — and in
/// `application/x-www-form-urlencoded` bodies; see ``redact(body:contentType:)``. Other bodies (plain text,
/// multipart, binary) are printed as they are: do not log bodies that carry secrets another way.
public struct Redactor: Sendable, Hashable {
    /// The headers every redactor hides unless built with ``none``.
    package static let defaultHeaderNames: Set<HTTPFieldName> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie, "X-Api-Key", "Api-Key", "X-Auth-Token",
        "X-Amz-Security-Token",
    ]

    /// The name fragments (lower-cased) that hide every header whose name contains one of them, ignoring case,
    /// unless built with ``none``.
    package static let defaultHeaderNameFragments: Set<String> = [
        "token", "secret", "password", "signature", "api-key", "apikey",
    ]

    /// The query parameters (lower-cased) every redactor hides unless built with ``none``: OAuth's `access_token`
    /// (RFC 6750 §2.3), API keys, and the signatures and session tokens of presigned URLs (AWS, Google Cloud, Azure).
    package static let defaultQueryParameterNames: Set<String> = [
        "access_token", "client_secret", "api_key", "apikey", "password", "token", "sig", "signature",
        "x-amz-signature", "x-amz-security-token", "x-goog-signature",
    ]

    /// The body fields every redactor hides unless built with ``none``: the OAuth 2.0 and OpenID Connect secrets
    /// (RFC 6749, OIDC Core) and `password`.
    package static let defaultBodyFieldNames: Set<String> = [
        "password", "client_secret", "access_token", "refresh_token", "id_token",
    ]

    /// Header names whose values are hidden.
    package var headerNames: Set<HTTPFieldName>
    /// Name fragments (lower-cased): a header whose lower-cased name contains one of them is hidden.
    package private(set) var headerNameFragments: Set<String>
    /// Query parameter names (lower-cased) whose values are hidden.
    package let queryParameterNames: Set<String>
    /// JSON member and form field names (lower-cased) whose values are hidden in bodies.
    package let bodyFieldNames: Set<String>
    /// What replaces a hidden value. Default `REDACTED` (safe in URLs, headers and shell commands).
    package var replacement: String

    /// A redactor hiding the default headers plus `headerNames`, the default query parameters plus
    /// `queryParameterNames`, and the default body fields plus `bodyFieldNames`.
    public init(
        headerNames: Set<HTTPFieldName> = [],
        queryParameterNames: Set<String> = [],
        bodyFieldNames: Set<String> = [],
        replacement: String = "REDACTED"
    ) {
        self.headerNames = Self.defaultHeaderNames.union(headerNames)
        headerNameFragments = Self.defaultHeaderNameFragments
        self.queryParameterNames = Set(
            Self.defaultQueryParameterNames.union(queryParameterNames).map { $0.lowercased() })
        self.bodyFieldNames = Set(Self.defaultBodyFieldNames.union(bodyFieldNames).map { $0.lowercased() })
        self.replacement = replacement
    }

    /// The default redactor.
    public static let `default` = Redactor()

    /// Hides nothing. Only for local debugging: output made with it contains secrets.
    public static let none = Redactor(exactHeaderNames: [], queryParameterNames: [], bodyFieldNames: [])

    private init(exactHeaderNames: Set<HTTPFieldName>, queryParameterNames: Set<String>, bodyFieldNames: Set<String>) {
        headerNames = exactHeaderNames
        headerNameFragments = []
        self.queryParameterNames = queryParameterNames
        self.bodyFieldNames = bodyFieldNames
        replacement = "REDACTED"
    }

    /// A copy that also hides every header whose name contains one of `fragments`, ignoring case.
    public func redactingHeaders(containing fragments: Set<String>) -> Redactor {
        var copy = self
        copy.headerNameFragments.formUnion(fragments.map { $0.lowercased() })
        return copy
    }

    /// Whether values of this header are hidden.
    package func redacts(header name: HTTPFieldName) -> Bool {
        headerNames.contains(name)
            || headerNameFragments.contains { !$0.isEmpty && name.canonicalName.contains($0) }
    }

    /// Whether values of this query parameter are hidden.
    package func redacts(queryParameter name: String) -> Bool {
        queryParameterNames.contains(name.lowercased())
    }

    /// Whether values of this JSON member or form field are hidden in bodies.
    package func redacts(bodyField name: String) -> Bool {
        bodyFieldNames.contains(name.lowercased())
    }

    /// `body` with the values of hidden fields replaced, as ``LoggingInterceptor`` and
    /// ``HTTPRequest/cURLDescription(redactor:)`` print it.
    ///
    /// - A form body (`contentType` is `application/x-www-form-urlencoded`): each `name=value` pair whose decoded
    ///   name is hidden becomes `name=REDACTED`.
    /// - A JSON body (`contentType` is `application/json` or `…+json`, or the body starts with `{` or `[`): each
    ///   member whose name is hidden, at any depth, gets the replacement as a JSON string for its value, whatever the
    ///   value was (a string, a number, an object or an array). The rest of the text is kept byte for byte, and text
    ///   that is not valid JSON is still redacted wherever it has the `"name": value` shape; it never fails.
    /// - Any other body, and a body without hidden fields, is returned unchanged.
    ///
    /// ```swift
    /// Redactor.default.redact(body: Data(#"{"user":"jane","password":"hunter2"}"#.utf8), contentType: nil)
    /// // {"user":"jane","password":"REDACTED"}
    /// ```
    public func redact(body: Data, contentType: String?) -> Data {
        guard !bodyFieldNames.isEmpty, !body.isEmpty else { return body }
        return BodyFieldRedaction.redact(body, contentType: contentType, replacement: replacement) {
            bodyFieldNames.contains($0.lowercased())
        } ?? body
    }

    /// The headers with hidden values replaced.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map(redact))
    }

    /// The field with its value replaced when it is hidden; the value of a field that holds a URL (`Location`,
    /// `Content-Location`) with its hidden query values and password replaced, as in ``redact(_:)-(URL)``: a redirect
    /// to a pre-signed URL must not put its signature in a log or a recording.
    package func redact(_ field: HTTPHeaders.Field) -> HTTPHeaders.Field {
        if redacts(header: field.name) { return HTTPHeaders.Field(name: field.name, value: replacement) }
        guard Self.uriReferenceFields.contains(field.name) else { return field }
        let value = redact(uriReference: field.value)
        return value == field.value ? field : HTTPHeaders.Field(name: field.name, value: value)
    }

    /// The fields whose value is a URI reference, absolute or relative.
    private static let uriReferenceFields: Set<HTTPFieldName> = [.location, HTTPFieldName("Content-Location")]

    /// `text`, a URI reference (absolute, scheme-relative or relative, as a `Location` field holds it), with the
    /// password of its user information and hidden query values replaced, the rest kept byte for byte. Text that is
    /// no URI reference is redacted the same way: a password between `//` and `@`, a query from the first `?` before
    /// any `#`.
    package func redact(uriReference text: String) -> String {
        let text = redactingPassword(inReference: text)
        guard !queryParameterNames.isEmpty, let start = text.firstIndex(where: { $0 == "?" || $0 == "#" }),
            text[start] == "?"
        else { return text }
        let queryStart = text.index(after: start)
        let queryEnd = text[queryStart...].firstIndex(of: "#") ?? text.endIndex
        let query = redact(percentEncodedQuery: String(text[queryStart..<queryEnd]))
        return String(text[..<queryStart]) + query + String(text[queryEnd...])
    }

    /// `text` with the password of its authority's user information (`//user:password@host`) replaced, when it has
    /// an authority: `//` at its start or right after its scheme.
    private func redactingPassword(inReference text: String) -> String {
        guard let slashes = text.range(of: "//") else { return text }
        let scheme = text[..<slashes.lowerBound]
        guard scheme.isEmpty || (scheme.hasSuffix(":") && !scheme.dropLast().contains { "/?#:".contains($0) })
        else { return text }
        let rest = text[slashes.upperBound...]
        let authority = rest[..<(rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return text
        }
        return String(text[...colon]) + replacement + String(text[at...])
    }

    /// The URL as text with hidden query values and any password in the user information replaced.
    package func redact(_ url: URL) -> String {
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
    package func redactedURL(of request: HTTPRequest) -> String {
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
