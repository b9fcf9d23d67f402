import Foundation

/// The redirect rules every transport follows, as pure functions over core values: ``URLSessionHTTPClient`` applies
/// them on top of what `URLSession` proposes, `NativeHTTPClient` builds each hop with them.
///
/// - 301 and 302 turn a `POST` into a body-less `GET`; 303 turns every method except `HEAD` into a body-less `GET`;
///   every other case (307, 308, a `PUT` after a 302, …) keeps the method and the body.
/// - `Authorization`, `Proxy-Authorization` and `Cookie` are removed when the scheme, host or port (default ports
///   filled in) changes, and stay removed for the rest of the call.
/// - `Location` resolves against the URL the redirect answered as RFC 3986 §5 says (``URIReference``); only `http`
///   and `https` targets are followed, and a response without a usable `Location` is returned as it is.
///
/// ```swift
/// let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")
/// let sent = HTTPRequest(method: .post, url: url, headers: ["Authorization": "Bearer t"], body: .text("x"))
/// if let next = RedirectHop.redirect(after: sent, sentTo: url, statusCode: 303, location: "/items/7") {
///     print(next.request.method.rawValue, next.url)  // GET https://api.example.com/items/7, no body
/// }
/// ```
package enum RedirectHop {
    /// The status codes that redirect: 301, 302, 303, 307 and 308.
    package static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// The header fields that carry credentials and never cross to another origin.
    package static let credentialFields: [HTTPFieldName] = [.authorization, .proxyAuthorization, .cookie]

    /// The request to send next after `statusCode` with `location` answered `request` sent to `url`, or `nil` when
    /// this is not a redirect that can be followed. `sensitiveFields` are removed across origins too.
    package static func redirect(
        after request: HTTPRequest,
        sentTo url: URL,
        statusCode: Int,
        location: String?,
        sensitiveFields: [HTTPFieldName] = []
    ) -> (request: HTTPRequest, url: URL)? {
        guard redirectStatusCodes.contains(statusCode), let target = target(of: location, relativeTo: url) else {
            return nil
        }
        let (method, keepsBody) = methodAfterRedirect(request.method, statusCode: statusCode)
        var headers = request.headers
        if !keepsBody {
            headers.remove(.contentType)
            headers.remove(.contentLength)
        }
        if crossesOrigin(from: url, to: target) {
            for field in credentialFields + sensitiveFields { headers.remove(field) }
        }
        // The follow-up keeps where its body goes (a file, a stream): only the final response's body counts.
        let next = HTTPRequest(method: method, url: target, headers: headers, body: keepsBody ? request.body : nil)
            .withTimeout(request.timeout)
            .withResponseDestination(request.responseDestination)
        return (next, target)
    }

    /// The absolute `http` or `https` URL a `Location` value points to, resolved against `url`; `nil` when it is
    /// missing, empty, of another scheme or without a host. A Unix socket URL (`http+unix`) is a target only from
    /// that very socket: a server elsewhere never redirects a call onto a local socket.
    package static func target(of location: String?, relativeTo url: URL) -> URL? {
        guard let location, !location.isEmpty,
            let target = URIReference.resolve(location.trimmingCharacters(in: .whitespaces), against: url),
            let scheme = target.scheme?.lowercased(), target.host != nil
        else { return nil }
        if Origin.unixSocketSchemes.contains(scheme) {
            guard let from = Origin(url), let to = Origin(target), from == to else { return nil }
            return target
        }
        guard scheme == "http" || scheme == "https" else { return nil }
        return target
    }

    /// The method after a redirect and whether the body is kept.
    package static func methodAfterRedirect(_ method: HTTPMethod, statusCode: Int) -> (HTTPMethod, keepsBody: Bool) {
        switch statusCode {
        case 303 where method != .head: return (.get, false)
        case 301 where method == .post, 302 where method == .post: return (.get, false)
        default: return (method, true)
        }
    }

    /// Whether `target` has another scheme, host (ignoring case) or port (default ports filled in) than `source`.
    /// `127.0.0.1` and `localhost` are different origins; a missing `source`, or a URL that has no origin to share
    /// (not `http`, `https` or a Unix socket URL, no host), always differs.
    package static func crossesOrigin(from source: URL?, to target: URL) -> Bool {
        guard let source, let from = Origin(source), let to = Origin(target) else { return true }
        return from != to
    }

    /// The port `url` connects to: its own, or 80 for `http` and 443 for `https`; `nil` for other schemes without
    /// a port.
    package static func effectivePort(of url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
