/// Turns a request into the one a transport sends, or explains why it cannot be sent: the one place that checks
/// and encodes a request.
///
/// Preparation checks that the method is a token, that the URL resolves (scheme, host), and that every header name
/// is a token and every value free of CR, LF, NUL and other control characters — so nothing can inject a header or
/// split a request. It encodes the body into the bytes that go on the wire (a file or a streamed body stays one, to
/// be read while it is sent), setting `Content-Type` unless the request has one. Prepared for a transport that
/// adds header fields of its own (``TransportHeaderDefaults``), it also carries those fields, so what follows sees
/// what is sent. The result records that it is prepared, with its resolved URL, until something changes it (see
/// `HTTPRequest.prepared()`).
enum RequestPreparation {
    /// The prepared form of `unprepared`, with the header fields `transport` would add of its own (the ones the
    /// request does not carry already).
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    static func prepare(_ unprepared: HTTPRequest, for transport: (any HTTPClient)? = nil) throws(APIClientError)
        -> HTTPRequest
    {
        guard unprepared.method.isValidToken else {
            throw .invalidRequest(reason: "invalid method \(DebugText.quoted(unprepared.method.rawValue))")
        }
        let url = try unprepared.resolvedURL()
        if let failure = unprepared.headers.validationFailure {
            throw .invalidRequest(reason: failure)
        }
        var request = try encodingBody(of: unprepared)
        if let transport = transport as? any TransportHeaderDefaults {
            request = try addingMissing(transport.defaultHeaders(for: request), to: request)
        }
        request.markPrepared(resolvedURL: url)
        return request
    }

    /// `request` with each field of `defaults` whose name it does not carry, appended in order; of several
    /// defaults with one name the first wins.
    private static func addingMissing(_ defaults: HTTPHeaders, to request: HTTPRequest) throws(APIClientError)
        -> HTTPRequest
    {
        var headers = request.headers
        var added = HTTPHeaders()
        for field in defaults where !request.headers.contains(field.name) && !added.contains(field.name) {
            added.add(field.name, field.value)
        }
        guard !added.isEmpty else { return request }
        // A transport's own fields come from its configuration (a session's additional headers): checked the same.
        if let failure = added.validationFailure {
            throw .invalidRequest(reason: failure)
        }
        for field in added { headers.add(field.name, field.value) }
        return request.withHeaders(headers)
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

    /// This request as `transport` sends it: like ``prepared()``, and a request that was not prepared yet also gets
    /// the header fields `transport` would add of its own (``TransportHeaderDefaults``) unless it carries them.
    ///
    /// The client prepares each attempt this way, once, before its `HTTPInterceptor`s; a request an interceptor
    /// changes afterwards is prepared again with ``prepared()``, so a transport field an interceptor removed stays
    /// removed. A transport given a request directly prepares it this way too.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    package func prepared(for transport: any HTTPClient) throws(APIClientError) -> HTTPRequest {
        isPrepared ? self : try RequestPreparation.prepare(self, for: transport)
    }
}
