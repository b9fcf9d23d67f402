import Foundation

/// Sends a ``CookieJar``'s cookies with each request and stores the cookies of each response, the same way on every
/// transport and platform.
///
/// ```swift
/// let jar = try CookieJar(persistingTo: cookiesFileURL)
/// apiClient.interceptors.append(CookieInterceptor(jar: jar))
/// ```
///
/// - **Sending**: the jar's cookies for the request's URL go in one `Cookie` field. A `Cookie` field the request
///   already has (yours, or another interceptor's) is kept and comes first: `Cookie: yours; jar=cookies`; cookies
///   are not de-duplicated by name, so servers that read the first value of a name see yours.
/// - **Storing**: every `Set-Cookie` field of the response, each a separate value on both transports
///   (`URLSessionHTTPClient` splits the fields URLSession joins), as received from ``HTTPResponse/url``.
/// - **Redirects** are followed inside the transport, after every interceptor; the interceptor takes part in each hop
///   through a ``RedirectHopObserver``: every redirect's `Set-Cookie` fields are stored (a login's `302` that sets the
///   session), and each hop carries the jar's cookies for its own URL — a hop to another origin gets that origin's
///   cookies, never the first origin's, and a `Cookie` field of your own goes only to hops on the first request's
///   origin. A `Cookie` field an interceptor after this one adds is not carried to the hops; redirects of requests
///   those interceptors send inside the call (a token refresh) are left to their transport.
/// - **URLSession's own cookie storage** is off in `URLSessionHTTPClient`'s default session configuration, so the
///   jar is the one source of `Cookie` and both transports behave alike. Do not give a session that has a jar a
///   cookie storage of its own: FoundationNetworking would replace the jar's `Cookie` field with the stored cookies.
///
/// Cookie expiry is measured on the call's clock (``HTTPCallContext/clock``). It works the same on both transports.
public struct CookieInterceptor: HTTPInterceptor {
    /// The jar cookies are read from and stored in.
    public let jar: CookieJar

    /// Creates the interceptor over `jar`.
    public init(jar: CookieJar) {
        self.jar = jar
    }

    /// Adds the jar's cookies to `request`, sends it, and stores the response's cookies.
    public func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        let url = try request.resolvedURL()
        var sent = request
        let own = request.headers.values(for: .cookie).filter { !$0.isEmpty }
        // Expiry is measured on the call's clock (a test's virtual clock, or the system's).
        if let cookies = jar.cookieHeader(for: url, at: context.clock.currentDate) {
            sent = request.withHeader(.cookie, (own + [cookies]).joined(separator: "; "))
        }
        let observer = hopObserver(for: request.method, to: url, own: own, context: context)
        let response = try await RedirectHopObserver.$current.withValue(observer) { try await next(sent) }
        jar.storeCookies(from: response, at: context.clock.currentDate)
        return response
    }

    /// The observer of the redirects of the call to `method url`: each redirect's `Set-Cookie` fields go to the jar,
    /// and each hop carries the jar's cookies for its URL, after the request's `own` cookies when the hop is on the
    /// first request's origin (never on another, whatever the path of redirects). Redirects of other requests sent
    /// inside the call (by interceptors after this one) are left alone.
    private func hopObserver(
        for method: HTTPMethod, to url: URL, own: [String], context: HTTPCallContext
    ) -> RedirectHopObserver {
        RedirectHopObserver { [jar] redirect, nextURL, headers in
            guard redirect.request.method == method, (try? redirect.request.resolvedURL()) == url else { return }
            let now = context.clock.currentDate
            jar.storeCookies(from: redirect, at: now)
            let keepsOwn = !RedirectHop.crossesOrigin(from: url, to: nextURL)
            headers.remove(.cookie)
            let cookies = (keepsOwn ? own : []) + (jar.cookieHeader(for: nextURL, at: now).map { [$0] } ?? [])
            if !cookies.isEmpty { headers[.cookie] = cookies.joined(separator: "; ") }
        }
    }
}
