import Foundation

extension HTTPResponse {
    /// The response's `Location` header resolved against the URL it came from (``url``: the request's URL, or the
    /// last redirect's), with the RFC 3986 §5 rules the transports follow redirects with — for protocols that chain
    /// `Location` headers (uploads, registries, long-running operations):
    ///
    /// ```swift
    /// let started = try await apiClient.POST("/v2/app/blobs/uploads/").get()
    /// if let upload = started.resolvedLocation {  // absolute, its query kept as the server sent it
    ///     let put = apiClient.request(.put, upload.absoluteString, parameters: ["digest": digest], body: .data(blob))
    ///     _ = await apiClient.send(put)
    /// }
    /// ```
    ///
    /// - A relative `Location` (`next`, `../up`, `/v2/x`, `?page=2`, `//other-host/p`) resolves as a browser would:
    ///   a query-only value keeps the path, `.` and `..` segments are removed, `..` never climbs above the root.
    /// - An absolute one is used as it is (its dot segments removed).
    /// - The query and the percent-encoding are kept byte for byte: `%2F` stays `%2F` and `+` stays `+` (upload
    ///   protocols carry signed state in them).
    ///
    /// `nil` when there is no `Location`, it is empty, or it does not resolve to an `http` or `https` URL with a host.
    public var resolvedLocation: URL? {
        guard let base = url ?? request.url else { return nil }
        return RedirectHop.target(of: headers[.location], relativeTo: base)
    }
}
