import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds a Foundation `URLRequest` from a prepared ``HTTPRequest``.
enum URLRequestBuilder {
    static func urlRequest(for request: HTTPRequest) throws(APIClientError) -> URLRequest {
        var urlRequest = URLRequest(url: try request.resolvedURL())
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = try request.bodyData()
        if let timeout = request.timeout {
            urlRequest.timeoutInterval = max(1, timeout.seconds.rounded(.up))
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
