import Foundation

/// One challenge of a `WWW-Authenticate` or `Proxy-Authenticate` header field (RFC 9110 §11.6.1), and who made it:
/// the server, or a proxy on the way (``isProxy``).
///
/// ```swift
/// // A 401 with `WWW-Authenticate: Basic realm="GitHub", charset="UTF-8", Bearer error="x"`:
/// let challenges = response.authenticationChallenges
/// challenges[0].scheme            // "Basic"
/// challenges[0].realm             // "GitHub"
/// challenges[1]["ERROR"]          // "x": parameter names ignore case
/// challenges[0].isProxy           // false: the server asked
/// ```
///
/// The same type reaches `BothamNetworkingNative`'s `ProxyAuthenticator` when an HTTP proxy asks for credentials.
/// Scheme and parameter names compare case-insensitively; values keep their case, with quoted-string escapes
/// (`\"`, `\\`) removed. Parsing never traps: malformed parts of a field are skipped.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// One `name=value` parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name as written.
        public var name: String
        /// The value, unquoted and unescaped.
        public var value: String

        /// Creates a parameter.
        package init(name: String, value: String) {
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
    /// Whether a proxy made the challenge (a `Proxy-Authenticate` field of a `407`, or a proxy's answer to a
    /// `CONNECT`) rather than the server the request was for.
    public var isProxy: Bool
    /// Who made the challenge: the server's origin (`https://api.example.com`, the port only when not the
    /// scheme's default), or the proxy as `host:port`; `nil` when it is not known.
    public var origin: String?

    /// Creates a challenge.
    package init(
        scheme: String, token68: String? = nil, parameters: [Parameter] = [], isProxy: Bool = false,
        origin: String? = nil
    ) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
        self.isProxy = isProxy
        self.origin = origin
    }

    /// The value of the first parameter with this name, compared ignoring case.
    package subscript(parameter name: String) -> String? {
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
    package func hasScheme(_ scheme: String) -> Bool {
        self.scheme.lowercased() == scheme.lowercased()
    }

    /// Every challenge in one header value. Malformed parts are skipped; the parser never traps.
    package static func parse(_ headerValue: String) -> [AuthenticationChallenge] {
        var parser = ChallengeParser(Array(headerValue.utf8))
        return parser.parseChallenges()
    }

    /// Every challenge in every `field` field of `headers`, in order, made by a proxy (`isProxy`) or not, by
    /// `origin`.
    package static func parse(
        _ headers: HTTPHeaders, field: HTTPFieldName = .wwwAuthenticate, isProxy: Bool = false, origin: String? = nil
    ) -> [AuthenticationChallenge] {
        headers.values(for: field).flatMap { value in
            parse(value).map { challenge in
                var challenge = challenge
                challenge.isProxy = isProxy
                challenge.origin = origin
                return challenge
            }
        }
    }
}

extension HTTPResponse {
    /// The challenges of this response, in order: those of its `Proxy-Authenticate` fields when it is a
    /// `407 Proxy Authentication Required` (``AuthenticationChallenge/isProxy``), of its `WWW-Authenticate` fields
    /// otherwise (a `401`'s, with ``AuthenticationChallenge/origin`` the origin of ``url``).
    public var authenticationChallenges: [AuthenticationChallenge] {
        guard statusCode == 407 else {
            return AuthenticationChallenge.parse(headers, origin: url.flatMap(Self.origin(of:)))
        }
        return AuthenticationChallenge.parse(headers, field: "Proxy-Authenticate", isProxy: true)
    }

    /// `scheme://host` with `:port` when the URL names one other than the scheme's default.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != defaultPort else { return "\(scheme)://\(bracketed)" }
        return "\(scheme)://\(bracketed):\(port)"
    }
}
