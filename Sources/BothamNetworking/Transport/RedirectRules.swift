import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the transport does to a redirect, on top of what `URLSession` does (FoundationNetworking on Linux forwards
/// credentials to other origins and drops the body of a 307/308).
enum RedirectRules {
    /// Header fields never sent to another origin than the one they were given for.
    static let credentialFields = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// Whether `a` and `b` are different origins: scheme, host (ignoring case) or port (with the scheme's default)
    /// differ. `127.0.0.1` and `localhost` are different origins.
    static func isCrossOrigin(_ a: URL?, _ b: URL?) -> Bool {
        guard let a, let b else { return true }
        let schemeA = a.scheme?.lowercased()
        let schemeB = b.scheme?.lowercased()
        return schemeA != schemeB || a.host?.lowercased() != b.host?.lowercased()
            || effectivePort(a, scheme: schemeA) != effectivePort(b, scheme: schemeB)
    }

    private static func effectivePort(_ url: URL, scheme: String?) -> Int? {
        if let port = url.port { return port }
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// `request` without the credential fields.
    static func strippingCredentials(_ request: URLRequest) -> URLRequest {
        var stripped = request
        for field in credentialFields {
            stripped.setValue(nil, forHTTPHeaderField: field)
        }
        return stripped
    }

    /// Whether a redirect with this status keeps the method and the body (RFC 9110 §15.4.8, §15.4.9).
    static func keepsMethodAndBody(_ statusCode: Int) -> Bool {
        statusCode == 307 || statusCode == 308
    }

    /// The request a 307/308 sends: the previous hop's method, headers and body, to `url`.
    static func reissue(_ previous: URLRequest, to url: URL) -> URLRequest {
        var next = previous
        next.url = url
        return next
    }
}
