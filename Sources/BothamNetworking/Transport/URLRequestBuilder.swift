import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds a Foundation `URLRequest` from a prepared ``HTTPRequest``.
enum URLRequestBuilder {
    /// The request for the first hop. `timeLimit` is enforced by the transport itself; URLSession's own (idle,
    /// whole-second) timeout is set one second past it so that it never fires first.
    static func urlRequest(for request: HTTPRequest, timeLimit: Duration?) throws(APIClientError) -> URLRequest {
        var urlRequest = URLRequest(url: try request.resolvedURL())
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = try request.bodyData()
        if let timeLimit {
            urlRequest.timeoutInterval = timeLimit.seconds.rounded(.up) + 1
        }
        return urlRequest
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
