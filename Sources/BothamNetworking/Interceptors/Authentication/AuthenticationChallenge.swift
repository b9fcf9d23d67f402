/// One challenge of a `WWW-Authenticate` (or `Proxy-Authenticate`) header, RFC 9110 §11.6.1.
///
/// ```swift
/// let challenges = AuthenticationChallenge.parse(#"Basic realm="GitHub", charset="UTF-8", Bearer error="x""#)
/// challenges[0].scheme            // "Basic"
/// challenges[0].realm             // "GitHub"
/// challenges[1]["ERROR"]          // "x": parameter names ignore case
/// ```
///
/// Scheme and parameter names compare case-insensitively; values keep their case, with quoted-string escapes
/// (`\"`, `\\`) removed.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// One `name=value` parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name as written.
        public var name: String
        /// The value, unquoted and unescaped.
        public var value: String

        /// Creates a parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The authentication scheme as written, for example `Basic` or `Bearer`.
    public var scheme: String
    /// The token68 form of the challenge's data (`Negotiate a87421000492aa874209af8bc028`), if it used that form.
    public var token68: String?
    /// The parameters in order.
    public var parameters: [Parameter]

    /// Creates a challenge.
    public init(scheme: String, token68: String? = nil, parameters: [Parameter] = []) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
    }

    /// The value of the first parameter with this name, compared ignoring case.
    public subscript(parameter name: String) -> String? {
        let lowered = name.lowercased()
        return parameters.first { $0.name.lowercased() == lowered }?.value
    }

    /// The value of the first parameter with this name, compared ignoring case.
    public subscript(name: String) -> String? {
        self[parameter: name]
    }

    /// The `realm` parameter.
    public var realm: String? { self["realm"] }

    /// Whether the scheme is `scheme`, ignoring case.
    public func hasScheme(_ scheme: String) -> Bool {
        self.scheme.lowercased() == scheme.lowercased()
    }

    /// Every challenge in one header value. Malformed parts are skipped; the parser never traps.
    public static func parse(_ headerValue: String) -> [AuthenticationChallenge] {
        var parser = ChallengeParser(Array(headerValue.utf8))
        return parser.parseChallenges()
    }

    /// Every challenge in every `WWW-Authenticate` field of `headers`, in order.
    public static func parse(_ headers: HTTPHeaders, field: HTTPFieldName = .wwwAuthenticate)
        -> [AuthenticationChallenge]
    {
        headers.values(for: field).flatMap { parse($0) }
    }
}

extension HTTPResponse {
    /// The challenges of every `WWW-Authenticate` field of this response.
    public var authenticationChallenges: [AuthenticationChallenge] {
        AuthenticationChallenge.parse(headers)
    }
}
