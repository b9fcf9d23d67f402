import Foundation

/// Sees every redirect a transport follows inside one call, and may change the header fields of the next hop: how
/// an interceptor takes part in hops that happen after it (``CookieJar`` stores each hop's `Set-Cookie`
/// fields and sends the jar's cookies for the next URL).
///
/// Bind one around the rest of the call; both transports read ``current`` when a call starts and call it for each
/// redirect they decide to follow, with the redirect response (status and header fields, its body not read, its
/// ``HTTPResponse/request`` the request the call was given, its ``HTTPResponse/url`` the URL that answered) and the
/// header fields of the next hop as the redirect rules made them — credentials already removed when the hop leaves
/// the origin. Every request sent inside the binding is observed, so check `redirect.request` when that matters. The
/// fields are as each transport keeps them: `URLSessionHTTPClient` shows one field per name (repeated values joined
/// with `,`, names capitalized on Linux, the `Content-Length` of a file body included), `NativeHTTPClient` the
/// request's fields as they are:
///
/// ```swift
/// let observer = RedirectHopObserver { redirect, nextURL, headers in
///     print("\(redirect.statusCode) → \(nextURL)")
///     headers[HTTPFieldName("X-Hop")] = "1"
/// }
/// let response = try await RedirectHopObserver.$current.withValue(observer) {
///     try await transport.send(request)
/// }
/// ```
///
/// The next hop is sent with the fields as `handler` leaves them; fields that fail ``HTTPHeaders/validationFailure``
/// end the call with ``APIClientError/invalidRequest(reason:)`` before the hop is sent. Do not add credentials back
/// to a hop that left the origin. `handler` runs on the transport's thread (`URLSessionHTTPClient`'s delegate
/// queue, under the call's lock; `NativeHTTPClient`'s calling task): keep it short, and do not cancel the call from
/// it. Both transports call it for every redirect they follow.
package final class RedirectHopObserver: Sendable {
    /// The observer of the call the current task is running, or `nil`.
    @TaskLocal public static var current: RedirectHopObserver?

    private let handler: @Sendable (HTTPResponse, URL, inout HTTPHeaders) -> Void

    /// Creates an observer that calls `handler` with each redirect response, the URL of the next hop and that hop's
    /// header fields, which it may change.
    package init(
        _ handler: @escaping @Sendable (_ redirect: HTTPResponse, _ nextURL: URL, _ headers: inout HTTPHeaders) -> Void
    ) {
        self.handler = handler
    }

    /// Hands `redirect`, `nextURL` and `headers` to the handler.
    package func willFollow(_ redirect: HTTPResponse, to nextURL: URL, headers: inout HTTPHeaders) {
        handler(redirect, nextURL, &headers)
    }

    /// The header fields of the hop to `nextURL` after `redirect`, as the handler leaves `headers`.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the handler left a field that cannot be sent.
    package func headers(
        after redirect: HTTPResponse, to nextURL: URL, proposed headers: HTTPHeaders
    ) throws(APIClientError) -> HTTPHeaders {
        var changed = headers
        willFollow(redirect, to: nextURL, headers: &changed)
        if let failure = changed.validationFailure {
            throw .invalidRequest(reason: "a redirect hop observer left an invalid field: \(failure)")
        }
        return changed
    }
}
