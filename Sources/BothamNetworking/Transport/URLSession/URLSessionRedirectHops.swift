import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The hops of one ``URLSessionTransfer``: the request of the current hop as sent, the redirects followed so far,
/// and what a redirect must carry or lose (``RedirectHop``).
///
/// URLSession follows a 301/302/303 itself once the delegate approves the next request; a 307/308 with a body would
/// lose it, so that one is declined and re-issued by the transfer as a new task once the 3xx completes (a
/// ``pendingReissue``).
struct URLSessionRedirectHops {
    /// What to answer URLSession's redirect proposal.
    enum Decision {
        /// Follow with this request.
        case follow(URLRequest)
        /// Do not follow: the 3xx completes the task (it is the response, or a re-issue is pending).
        case decline
        /// The policy's limit is spent: the call ends with `tooManyRedirects`.
        case tooManyRedirects
        /// The call's `RedirectHopObserver` left a field that cannot be sent: the call ends with this error.
        case invalid(APIClientError)
    }

    /// The request of the current hop, as sent.
    private(set) var current: URLRequest
    /// The file the current hop's request body is uploaded from, if any.
    private(set) var bodyFile: URL?
    /// A request to send again, as a new task, once the current task completes: a 307/308 with a body that
    /// URLSession would drop, or a ranged first request whose answer asks for the whole body.
    var pendingReissue: URLRequest?
    private var redirects = 0
    /// A redirect left the first origin: credentials stay off for the rest of the call.
    private var stripsCredentials = false

    /// Starts with `first`.
    init(first: URLSessionHop) {
        current = first.request
        bodyFile = first.bodyFile
    }

    /// URLSession proposes to follow `response` with `proposed`: the decision under `policy`.
    ///
    /// `storedCookies` is the `Cookie` field the session's cookie storage has for the target, when URLSession does
    /// not add it itself (FoundationNetworking leaves it out of a redirect a delegate approves).
    ///
    /// `hopObserver`, the call's `RedirectHopObserver`, sees the redirect (as answering `request`) and may change the
    /// next hop's fields last.
    mutating func redirect(
        from response: HTTPURLResponse,
        proposed: URLRequest,
        storedCookies: String?,
        policy: RedirectPolicy,
        hopObserver: RedirectHopObserver? = nil,
        answering request: HTTPRequest
    ) -> Decision {
        // The target as RFC 3986 §5 resolves `Location` (URLSession's own resolution loses the path of a query-only
        // one); an unusable `Location` is not followed, as on native.
        guard let answered = response.url ?? current.url,
            let target = RedirectHop.target(of: response.value(forHTTPHeaderField: "Location"), relativeTo: answered)
        else { return .decline }
        redirects += 1
        if redirects > policy.maxRedirects {
            // "Do not follow" hands back the 3xx; a spent limit is an error.
            return policy.followsRedirects ? .tooManyRedirects : .decline
        }
        if RedirectHop.crossesOrigin(from: response.url ?? current.url, to: target) {
            stripsCredentials = true
        }
        let keepsBody = RedirectHop.keepsMethodAndBody(current, statusCode: response.statusCode)
        let reissues = keepsBody && (!(current.httpBody?.isEmpty ?? true) || bodyFile != nil)
        var next = reissues ? RedirectHop.reissue(current, to: target) : proposed
        next.url = target
        if !keepsBody {
            next = RedirectHop.droppingBodyFields(next)
        }
        if stripsCredentials {
            next = RedirectHop.strippingCredentials(next, sensitiveFields: policy.sensitiveFields)
        }
        if !reissues, let storedCookies {
            // A re-issued hop is a new task: URLSession adds the stored cookies to it by itself. Otherwise the stored
            // cookies are the hop's Cookie field, as URLSession makes them on a first hop (the first hop's field,
            // which preparation already built from the same storage, is not added to them again).
            next.setValue(storedCookies, forHTTPHeaderField: "Cookie")
        }
        if let hopObserver {
            let redirect = HTTPResponse(
                statusCode: response.statusCode,
                headers: URLResponseHeaderConverter.headers(of: response, bodyCount: 0),
                request: request, url: answered)
            do {
                let headers = try hopObserver.headers(
                    after: redirect, to: target, proposed: URLRequestBuilder.headers(of: next))
                URLRequestBuilder.replaceHeaderFields(of: &next, with: headers)
            } catch {
                return .invalid(error)
            }
        }
        if reissues {
            // URLSession would send this hop without its body: let the 3xx complete and send it ourselves.
            pendingReissue = next
            return .decline
        }
        current = next
        // URLSession follows this one itself; a 301/302/303 does not carry an uploaded file along.
        bodyFile = nil
        return .follow(next)
    }

    /// Makes the pending re-issue the current hop and returns it (its body file sent again), or `nil` when none is
    /// pending.
    mutating func startReissue() -> URLSessionHop? {
        guard let reissue = pendingReissue else { return nil }
        pendingReissue = nil
        current = reissue
        return URLSessionHop(request: reissue, bodyFile: bodyFile)
    }
}
