import Foundation

/// The jar in a client's ``BothamAPIClient/interceptors``: `apiClient.interceptors.append(jar)`.
extension CookieJar: HTTPInterceptor {
    /// Adds the jar's cookies to `request`, sends it, and stores the response's cookies.
    public func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        let url = try request.resolvedURL()
        var sent = request
        let own = request.headers.values(for: .cookie).filter { !$0.isEmpty }
        // Expiry is measured on the call's clock (a test's virtual clock, or the system's).
        if let cookies = cookieHeader(for: url, at: context.clock.currentDate) {
            sent = request.withHeader(.cookie, (own + [cookies]).joined(separator: "; "))
        }
        let observer = hopObserver(for: request.method, to: url, own: own, context: context)
        let response = try await RedirectHopObserver.$current.withValue(observer) { try await next(sent) }
        storeCookies(from: response, at: context.clock.currentDate)
        return response
    }

    /// The observer of the redirects of the call to `method url`: each redirect's `Set-Cookie` fields go to the jar,
    /// and each hop carries the jar's cookies for its URL, after the request's `own` cookies when the hop is on the
    /// first request's origin (never on another, whatever the path of redirects). Redirects of other requests sent
    /// inside the call (by interceptors after this one) are left alone.
    private func hopObserver(
        for method: HTTPMethod, to url: URL, own: [String], context: HTTPCallContext
    ) -> RedirectHopObserver {
        RedirectHopObserver { [self] redirect, nextURL, headers in
            guard redirect.request.method == method, (try? redirect.request.resolvedURL()) == url else { return }
            let now = context.clock.currentDate
            storeCookies(from: redirect, at: now)
            let keepsOwn = !RedirectHop.crossesOrigin(from: url, to: nextURL)
            headers.remove(.cookie)
            let cookies = (keepsOwn ? own : []) + (cookieHeader(for: nextURL, at: now).map { [$0] } ?? [])
            if !cookies.isEmpty { headers[.cookie] = cookies.joined(separator: "; ") }
        }
    }
}
