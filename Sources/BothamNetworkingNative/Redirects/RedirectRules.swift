import BothamNetworking
import Foundation

/// The redirect rules, as pure functions over core values so that any transport can share them.
///
/// - 301, 302 and 303 turn a `POST` into a body-less `GET` (303 turns every method except `HEAD` into `GET`);
///   307 and 308 keep the method and the body.
/// - `Authorization`, `Proxy-Authorization` and `Cookie` are removed when the scheme, host or port changes.
/// - Only `http` and `https` targets are followed; a response without a usable `Location` is returned as it is.
public enum RedirectRules {
    /// The status codes that redirect: 301, 302, 303, 307 and 308.
    public static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// The header fields that carry credentials and never cross to another origin.
    public static let credentialFields: [HTTPFieldName] = [.authorization, .proxyAuthorization, .cookie]

    /// The request to send next after `statusCode` with `location` answered `request` sent to `url`, or `nil` when
    /// this is not a redirect that can be followed.
    public static func redirect(
        after request: HTTPRequest,
        sentTo url: URL,
        statusCode: Int,
        location: String?
    ) -> (request: HTTPRequest, url: URL)? {
        guard redirectStatusCodes.contains(statusCode), let location, !location.isEmpty,
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        let (method, keepsBody) = methodAfterRedirect(request.method, statusCode: statusCode)
        var headers = request.headers
        if !keepsBody {
            headers.remove(.contentType)
            headers.remove(.contentLength)
        }
        if crossesOrigin(from: url, to: target) {
            for field in credentialFields { headers.remove(field) }
        }
        let next = HTTPRequest(method: method, url: target, headers: headers, body: keepsBody ? request.body : nil)
            .withTimeout(request.timeout)
        return (next, target)
    }

    /// The method after a redirect and whether the body is kept.
    public static func methodAfterRedirect(_ method: HTTPMethod, statusCode: Int) -> (HTTPMethod, keepsBody: Bool) {
        switch statusCode {
        case 303 where method != .head: return (.get, false)
        case 301 where method == .post, 302 where method == .post: return (.get, false)
        default: return (method, true)
        }
    }

    /// Whether `target` has another scheme, host or port (default ports filled in) than `source`.
    public static func crossesOrigin(from source: URL, to target: URL) -> Bool {
        func key(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return key(source) != key(target)
    }
}
