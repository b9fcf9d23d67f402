/// Turns the request the interceptors produced into the one the transport sends, or explains why it cannot be sent.
enum RequestPreparation {
    /// Checks the method, URL and headers, and encodes the body into raw data with its `Content-Type` set.
    static func prepare(_ unprepared: HTTPRequest) throws(APIClientError) -> HTTPRequest {
        guard unprepared.method.isValidToken else {
            throw .invalidRequest(reason: "invalid method \(DebugText.quoted(unprepared.method.rawValue))")
        }
        var request = unprepared
        try request.cacheResolvedURL()  // the transport reuses it instead of resolving the URL again
        try request.checkWireSyntax()
        guard let body = request.body else { return request }
        if case .data(_, nil) = body.storage { return request }
        let userContentType = request.headers[.contentType]
        if case .file(let url, let contentType, _) = body.storage {
            // A file body stays a file so the transport can upload it without loading it into memory.
            _ = try FileBody.size(of: url)
            guard userContentType == nil, let contentType else { return request }
            return request.withHeader(.contentType, contentType)
        }
        if case .stream(_, let contentType) = body.storage {
            // A streamed body is produced while the transport sends it.
            guard userContentType == nil, let contentType else { return request }
            return request.withHeader(.contentType, contentType)
        }
        let (data, contentType) = try body.encoded(forContentType: userContentType)
        var prepared = request.withBody(.data(data))
        if userContentType == nil, let contentType {
            prepared = prepared.withHeader(.contentType, contentType)
        }
        return prepared
    }
}
