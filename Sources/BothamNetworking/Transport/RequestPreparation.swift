/// Turns a request into the one a transport sends, or explains why it cannot be sent: the one place that checks
/// and encodes a request.
///
/// Preparation checks that the method is a token, that the URL resolves (scheme, host), and that every header name
/// is a token and every value free of CR, LF, NUL and other control characters — so nothing can inject a header or
/// split a request. It encodes the body into the bytes that go on the wire (a file or a streamed body stays one, to
/// be read while it is sent), setting `Content-Type` unless the request has one. The result records that it is
/// prepared, with its resolved URL, until something changes it (see `HTTPRequest.prepared()`).
enum RequestPreparation {
    /// The prepared form of `unprepared`.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    static func prepare(_ unprepared: HTTPRequest) throws(APIClientError) -> HTTPRequest {
        guard unprepared.method.isValidToken else {
            throw .invalidRequest(reason: "invalid method \(DebugText.quoted(unprepared.method.rawValue))")
        }
        let url = try unprepared.resolvedURL()
        if let failure = unprepared.headers.validationFailure {
            throw .invalidRequest(reason: failure)
        }
        var request = try encodingBody(of: unprepared)
        request.markPrepared(resolvedURL: url)
        return request
    }

    /// `request` with its body as it goes on the wire and its `Content-Type` set.
    private static func encodingBody(of request: HTTPRequest) throws(APIClientError) -> HTTPRequest {
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

extension HTTPRequest {
    /// This request as a transport sends it: `self` when it is already prepared (nothing is checked or encoded
    /// again), otherwise the result of the one preparation every request goes through (`RequestPreparation`).
    ///
    /// The client prepares every attempt, and its onion hands the transport a prepared request (preparing again only
    /// a request an `HTTPInterceptor` changed); transports call this first, so one used directly gets the same
    /// checks and a request through the client is never checked twice.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    package func prepared() throws(APIClientError) -> HTTPRequest {
        isPrepared ? self : try RequestPreparation.prepare(self)
    }
}
