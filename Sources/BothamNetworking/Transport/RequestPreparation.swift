/// Turns a request into the one a transport sends, or explains why it cannot be sent: the one place that checks
/// and encodes a request.
///
/// Preparation checks that the method is a token, that the URL resolves (scheme, host), and that every header name
/// is a token and every value free of CR, LF, NUL and other control characters — so nothing can inject a header or
/// split a request. It encodes the body into the bytes that go on the wire (a file or a streamed body stays one, to
/// be read while it is sent), setting `Content-Type` unless the request has one. Prepared for a transport that
/// adds header fields of its own (``TransportHeaderDefaults``), it also carries those fields, so what follows sees
/// what is sent. Inside a call the result is recorded as prepared, with its resolved URL, in the call's
/// `RequestPreparations` (see `HTTPRequest.prepared()`).
enum RequestPreparation {
    /// The prepared form of `unprepared`, with the header fields `transport` would add of its own (the ones the
    /// request does not carry already) unless an earlier preparation added them.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    /// `changedAfterPreparation` records that the pipeline prepares again a request an `HTTPInterceptor` changed
    /// after the attempt's preparation, which (`transportFieldsAdded`) may already have added the transport's fields.
    static func prepare(
        _ unprepared: HTTPRequest, for transport: (any TransportHeaderDefaults)?,
        changedAfterPreparation: Bool = false, transportFieldsAdded: Bool = false
    ) throws(APIClientError) -> HTTPRequest {
        guard unprepared.method.isValidToken else {
            throw .invalidRequest(reason: "invalid method \(DebugText.quoted(unprepared.method.rawValue))")
        }
        let url = try unprepared.resolvedURL()
        if let failure = unprepared.headers.validationFailure {
            throw .invalidRequest(reason: failure)
        }
        // One working copy: the body, `Content-Type` and the transport's fields change it in place.
        var request = unprepared
        try encodeBody(of: &request)
        if !transportFieldsAdded, let transport {
            try addMissing(transport.defaultHeaders(for: request), to: &request)
        }
        RequestPreparations.remember(
            request, url: url, transportFieldsAdded: transportFieldsAdded || transport != nil,
            changedAfterPreparation: changedAfterPreparation)
        return request
    }

    /// `request` already prepared, with the fields of `transport` it does not carry (a request prepared by a client
    /// whose transport wraps this one).
    static func addingTransportFields(
        to prepared: HTTPRequest, record: RequestPreparations.Record, for transport: some TransportHeaderDefaults
    ) throws(APIClientError) -> HTTPRequest {
        var request = prepared
        try addMissing(transport.defaultHeaders(for: request), to: &request)
        RequestPreparations.remember(
            request, url: record.url, transportFieldsAdded: true,
            changedAfterPreparation: record.changedAfterPreparation)
        return request
    }

    /// Appends each field of `defaults` whose name `request` does not carry, in order; of several defaults with one
    /// name the first wins.
    private static func addMissing(_ defaults: HTTPHeaders, to request: inout HTTPRequest) throws(APIClientError) {
        var headers = request.headers
        var added = false
        for field in defaults where !headers.contains(field.name) {
            headers.add(field.name, field.value)
            added = true
        }
        guard added else { return }
        // A transport's own fields come from its configuration (a session's additional headers): checked the same.
        if let failure = defaults.validationFailure {
            throw .invalidRequest(reason: failure)
        }
        request.headers = headers
    }

    /// Puts the body in the form it goes on the wire in and sets its `Content-Type`.
    private static func encodeBody(of request: inout HTTPRequest) throws(APIClientError) {
        guard let body = request.body else { return }
        if case .data(_, nil) = body.storage { return }
        let userContentType = request.headers[.contentType]
        var contentType: String?
        switch body.storage {
        case .file(let url, let fileContentType, _):
            // A file body stays a file so the transport can upload it without loading it into memory.
            _ = try FileBody.size(of: url)
            contentType = fileContentType
        case .stream(_, let streamContentType):
            // A streamed body is produced while the transport sends it.
            contentType = streamContentType
        default:
            let (data, encodedContentType) = try body.encoded(forContentType: userContentType)
            request.body = .data(data)
            contentType = encodedContentType
        }
        if userContentType == nil, let contentType { request.headers[.contentType] = contentType }
    }
}

extension HTTPRequest {
    /// This request as a transport sends it: `self` when the running call already prepared it (nothing is checked or
    /// encoded again), otherwise the result of the one preparation every request goes through (`RequestPreparation`).
    ///
    /// The client prepares every attempt, and its onion hands the transport a prepared request (preparing again only
    /// a request an `HTTPInterceptor` changed); transports call ``prepared(for:)`` first, so one used directly gets
    /// the same checks and a request through the client is never checked twice.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    package func prepared() throws(APIClientError) -> HTTPRequest {
        isPrepared ? self : try RequestPreparation.prepare(self, for: nil)
    }

    /// This request as `transport` sends it: like ``prepared()``, and with the header fields `transport` would add of
    /// its own (``TransportHeaderDefaults``) unless it carries them or an earlier preparation added them (so a field
    /// an interceptor removed stays removed).
    ///
    /// The client prepares each attempt this way, once, before its `HTTPInterceptor`s; a request an interceptor
    /// changes afterwards is prepared again with ``prepared()``. A transport calls this on what it is given, so one
    /// used directly, or inside a user's wrapper transport, still sends its own fields.
    ///
    /// - Throws: `APIClientError.invalidRequest` or `APIClientError.unsupportedURLScheme`; nothing
    ///   has been sent.
    package func prepared(for transport: some TransportHeaderDefaults) throws(APIClientError) -> HTTPRequest {
        guard let record = RequestPreparations.record(of: self) else {
            return try RequestPreparation.prepare(self, for: transport)
        }
        guard !record.transportFieldsAdded else { return self }
        return try RequestPreparation.addingTransportFields(to: self, record: record, for: transport)
    }

    /// This request prepared for the client's transport, whose header fields (when it has any of its own) are
    /// `transportFields`, looked up once per client.
    func prepared(for transportFields: (any TransportHeaderDefaults)?) throws(APIClientError) -> HTTPRequest {
        isPrepared ? self : try RequestPreparation.prepare(self, for: transportFields)
    }
}
