import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds a Foundation `URLRequest` from a prepared ``HTTPRequest`` (`HTTPRequest.prepared()`: already checked, its
/// URL resolved and its body encoded, so nothing is checked or encoded here).
enum URLRequestBuilder {
    /// The first hop and the size of its body. `timeLimit` is enforced by the transport itself; URLSession's own
    /// (idle, whole-second) timeout is set one second past it so that it never fires first.
    ///
    /// A file body (``HTTPBody/fileURL``) is not read: the hop uploads it from the file, with its size as
    /// `Content-Length`.
    static func firstHop(for request: HTTPRequest, timeLimit: Duration?) throws(APIClientError) -> (
        hop: URLSessionHop, bodySize: Int64?
    ) {
        var urlRequest = URLRequest(url: try request.resolvedURL())
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        let bodyFile = request.body?.fileURL
        let bodySize: Int64?
        if let bodyFile {
            let size = try FileBody.size(of: bodyFile)
            urlRequest.setValue(String(size), forHTTPHeaderField: "Content-Length")
            bodySize = Int64(size)
        } else {
            urlRequest.httpBody = try request.bodyData()
            bodySize = urlRequest.httpBody.map { Int64($0.count) }
        }
        if let timeLimit {
            urlRequest.timeoutInterval = timeLimit.seconds.rounded(.up) + 1
        }
        return (URLSessionHop(request: urlRequest, bodyFile: bodyFile), bodySize)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
