import Foundation

/// Invalidation after an unsafe request (RFC 9111 §4.4).
enum CacheInvalidation {
    /// The methods that are safe (RFC 9110 §9.2.1) and so invalidate nothing.
    static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// The URLs whose stored responses `response` (to `request`) invalidates: none for a safe method or an error
    /// response; otherwise the target URI and the `Location` and `Content-Location` URLs that have its origin
    /// (§4.4: a cache must not invalidate another origin's responses, which would allow denial of service).
    static func invalidatedURLs(by response: HTTPResponse, for request: HTTPRequest) -> [String] {
        guard !safeMethods.contains(request.method), (200..<400).contains(response.statusCode),
            let target = request.url
        else { return [] }
        var urls = [CacheKey.normalized(target)]
        let origin = Origin(target)
        for name in [HTTPFieldName.location, "Content-Location"] {
            guard let value = response.headers[name], let url = URL(string: value, relativeTo: response.url ?? target)
            else { continue }
            let absolute = url.absoluteURL
            guard let other = Origin(absolute), other == origin else { continue }
            urls.append(CacheKey.normalized(absolute))
        }
        return urls
    }
}
