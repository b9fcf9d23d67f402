import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Converts the header fields of a Foundation `HTTPURLResponse` into ``HTTPHeaders``, as the transport presents them.
enum URLResponseHeaderConverter {
    /// Content codings the platform decodes by itself (libcurl on Linux, when built with them), whatever the request
    /// offered (the transport offers `gzip, deflate` there: `URLSessionHTTPClient.acceptEncoding`).
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd", "identity"]

    /// The headers of `response`, sorted by name ignoring case (Foundation hands them over as a dictionary, so
    /// this is the one deterministic order), made consistent with the body of `bodyCount` bytes the transport
    /// received: when the platform decoded the body, `Content-Encoding` goes, and so does a `Content-Length` that no
    /// longer matches.
    static func headers(of response: HTTPURLResponse, bodyCount: Int) -> HTTPHeaders {
        let fields = response.allHeaderFields.compactMap { key, value -> (HTTPFieldName, String)? in
            guard let name = key as? String else { return nil }
            return (HTTPFieldName(name), value as? String ?? "\(value)")
        }
        var headers = HTTPHeaders()
        // Sorted by the lower-cased name computed once per field (then the spelling), not twice per comparison.
        for (name, value) in fields.sorted(by: {
            ($0.0.canonicalName, $0.0.rawName) < ($1.0.canonicalName, $1.0.rawName)
        }) {
            if name == .setCookie {
                // The platform joined repeated Set-Cookie fields with ", ": give each cookie its own field again.
                for cookie in SetCookieSplitting.split(value) { headers.add(name, cookie) }
            } else {
                headers.add(name, value)
            }
        }
        if let encoding = headers[.contentEncoding], isDecodedByPlatform(encoding) {
            headers.remove(.contentEncoding)
            if let length = headers[.contentLength], Int(length) != bodyCount {
                headers.remove(.contentLength)
            }
        }
        return headers
    }

    private static func isDecodedByPlatform(_ contentEncoding: String) -> Bool {
        let codings = contentEncoding.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return !codings.isEmpty && codings.allSatisfy(decodedCodings.contains)
    }
}
