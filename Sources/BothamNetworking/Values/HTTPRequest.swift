import Foundation

/// An immutable description of one HTTP request.
///
/// Requests are values: interceptors never change a request in place, they return a changed copy made with the
/// helpers below (``appendingHeaders(_:)``, ``appendingParameters(_:)``, ``withBody(_:)``, ``withMethod(_:)``, …).
///
/// The URL is the client's base endpoint joined with ``path`` (exactly one `/` between them; a query already in the
/// path is kept) followed by ``parameters``. A path that is an absolute `http(s)://` URL is used as it is.
public struct HTTPRequest: Sendable {
    /// The fields, shared between copies until one of them changes (copy-on-write): a request is then one
    /// reference, cheap to copy and small in the async frames of a call.
    private var storage: HTTPRequestStorage

    /// The method, for example ``HTTPMethod/get``.
    public internal(set) var method: HTTPMethod {
        get { storage.fields.method }
        set { change { $0.method = newValue } }
    }
    /// The base endpoint the path is resolved against, for example `https://api.github.com`.
    public internal(set) var baseEndpoint: String {
        get { storage.fields.baseEndpoint }
        set { change { $0.baseEndpoint = newValue } }
    }
    /// The path relative to ``baseEndpoint`` (may carry its own query), or an absolute URL.
    public internal(set) var path: String {
        get { storage.fields.path }
        set { change { $0.path = newValue } }
    }
    /// Query parameters appended after any query the endpoint or path already has.
    public internal(set) var parameters: HTTPParameters {
        get { storage.fields.parameters }
        set { change { $0.parameters = newValue } }
    }
    /// The header fields.
    public internal(set) var headers: HTTPHeaders {
        get { storage.fields.headers }
        set { change { $0.headers = newValue } }
    }
    /// The body, or `nil`.
    public internal(set) var body: HTTPBody? {
        get { storage.fields.body }
        set { change { $0.body = newValue } }
    }
    /// How long one attempt may take before it fails with ``APIClientError/timeout``: every redirect and the whole
    /// body included (a streamed body: until its head), and also the longest wait for a byte. It replaces the
    /// transport's ``TransportLimits/attemptTimeout`` and ``TransportLimits/idleTimeout`` for this request;
    /// ``TransportLimits/maxAttemptTimeout`` still caps it. `nil` uses the transport's limits.
    public internal(set) var timeout: Duration? {
        get { storage.fields.timeout }
        set { change { $0.timeout = newValue } }
    }
    /// Where the response body goes: ``ResponseBodyDestination/memory`` (the default) or a file.
    public internal(set) var responseDestination: ResponseBodyDestination {
        get { storage.fields.responseDestination }
        set { change { $0.responseDestination = newValue } }
    }

    /// Which responses this request accepts, replacing the client's ``BothamAPIClient/Configuration/validation``
    /// for its calls; `nil` (the default) uses the client's. Set it with ``accepting(_:)``.
    public var validation: ResponseValidation? { storage.validation }

    /// The storage, copied first when another value shares it.
    private mutating func uniqueStorage() -> HTTPRequestStorage {
        if !isKnownUniquelyReferenced(&storage) {
            storage = HTTPRequestStorage(storage.fields, validation: storage.validation)
        }
        return storage
    }

    /// Changes fields.
    private mutating func change(_ body: (inout HTTPRequestStorage.Fields) -> Void) {
        body(&uniqueStorage().fields)
    }

    /// Creates a request.
    public init(
        method: HTTPMethod,
        baseEndpoint: String,
        path: String = "",
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        timeout: Duration? = nil
    ) {
        storage = HTTPRequestStorage(
            .init(
                method: method,
                baseEndpoint: baseEndpoint,
                path: path,
                parameters: parameters,
                headers: headers,
                body: body,
                timeout: timeout
            )
        )
    }

    /// Creates a request for an absolute URL.
    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: HTTPBody? = nil) {
        self.init(method: method, baseEndpoint: url.absoluteString, headers: headers, body: body)
    }

    /// The resolved URL, or `nil` when the endpoint or path is malformed.
    public var url: URL? { try? resolvedURL() }

    /// The resolved URL.
    ///
    /// - Throws: `APIClientError.unsupportedURLScheme` for a scheme other than `http`, `https`, `http+unix` or
    ///   `https+unix` (a Unix domain socket, which `NativeHTTPClient` reaches), and
    ///   `APIClientError.invalidRequest` for a malformed endpoint or path.
    ///
    /// For a request this call prepared (the one a transport receives) this returns the URL preparation resolved,
    /// without work.
    public func resolvedURL() throws(APIClientError) -> URL {
        if let url = RequestPreparations.record(of: self)?.url { return url }
        return try URLBuilder.url(baseEndpoint: baseEndpoint, path: path, parameters: parameters)
    }

    /// Whether the running call prepared this request as it is now (`RequestPreparations`): its URL is resolved, its
    /// method and header fields are valid and its body is in the form it goes on the wire in. Outside a call, or
    /// after a change of any of those fields, `false`.
    package var isPrepared: Bool { RequestPreparations.record(of: self) != nil }

    /// Whether the running call's pipeline prepared this request again after an `HTTPInterceptor` changed it: it may
    /// carry a signature over exactly its fields, so a transport adds and changes none (URLSession does not fetch its
    /// file body in byte ranges).
    package var changedAfterPreparation: Bool { RequestPreparations.record(of: self)?.changedAfterPreparation ?? false }

    /// The identity of the storage this value shares with its copies (tests tell a re-prepared request apart by it).
    var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Whether this request's storage is `other`'s.
    func sharesStorage(with other: HTTPRequest) -> Bool { storage === other.storage }

    /// Whether this request and `other` prepare alike (`HTTPRequestStorage.Fields.preparesAlike(_:)`).
    func preparesAlike(_ other: HTTPRequest) -> Bool {
        storage === other.storage || storage.fields.preparesAlike(other.storage.fields)
    }

    private func with(_ change: (inout HTTPRequest) -> Void) -> HTTPRequest {
        var copy = self
        change(&copy)
        return copy
    }

    /// A copy with `headers` applied: each name in `headers` replaces the fields of that name.
    public func appendingHeaders(_ headers: HTTPHeaders) -> HTTPRequest {
        with { $0.headers = $0.headers.merging(headers) }
    }

    /// A copy with one header set, replacing any field of that name; `nil` removes the fields of that name.
    public func withHeader(_ name: HTTPFieldName, _ value: String?) -> HTTPRequest {
        with { $0.headers[name] = value }
    }

    /// A copy with exactly these headers.
    public func withHeaders(_ headers: HTTPHeaders) -> HTTPRequest {
        with { $0.headers = headers }
    }

    /// A copy with `parameters` appended after the existing ones.
    public func appendingParameters(_ parameters: HTTPParameters) -> HTTPRequest {
        with { $0.parameters = $0.parameters.appending(parameters) }
    }

    /// A copy with another body (or none).
    public func withBody(_ body: HTTPBody?) -> HTTPRequest {
        with { $0.body = body }
    }

    /// A copy with another method.
    public func withMethod(_ method: HTTPMethod) -> HTTPRequest {
        with { $0.method = method }
    }

    /// A copy with another path.
    public func withPath(_ path: String) -> HTTPRequest {
        with { $0.path = path }
    }

    /// A copy that accepts the responses `validation` accepts, instead of the client's
    /// ``BothamAPIClient/Configuration/validation`` — for a conditional `GET` whose `304 Not Modified` is an answer,
    /// not a failure:
    ///
    /// ```swift
    /// let request = apiClient.request(.get, "/manifest", headers: ["If-None-Match": etag])
    ///     .accepting(.successfulStatusCodes.adding(304))
    /// let response = try await apiClient.response(for: request)   // 200 with a body, or 304 without one
    /// ```
    ///
    /// The rule of the request given to `BothamAPIClient.send(_:)` applies after every response interceptor, where
    /// the client's would; a ``ValidationInterceptor`` still runs at its place. Not part of equality: two requests
    /// that differ only in their validation are equal. Keeping preparation: it is not sent.
    public func accepting(_ validation: ResponseValidation?) -> HTTPRequest {
        var copy = self
        let storage = copy.uniqueStorage()
        storage.validation = validation
        return copy
    }

    /// A copy with another base endpoint.
    package func withBaseEndpoint(_ baseEndpoint: String) -> HTTPRequest {
        with { $0.baseEndpoint = baseEndpoint }
    }

    /// A copy with another per-attempt timeout.
    public func withTimeout(_ timeout: Duration?) -> HTTPRequest {
        with { $0.timeout = timeout }
    }

    /// A copy whose response body goes to `destination` (a file, a folder, or memory).
    public func withResponseDestination(_ destination: ResponseBodyDestination) -> HTTPRequest {
        with { $0.responseDestination = destination }
    }
}

extension HTTPRequest: Hashable {
    /// Requests are equal when every field is (whether they were prepared, and their ``validation``, do not count).
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every field that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}

extension HTTPRequest: CustomStringConvertible {
    /// `GET https://host/path?query`, or the endpoint and path when they do not form a URL. A password in the URL's
    /// user-info and the query values ``Redactor/default`` hides (`access_token`, `X-Amz-Signature`…) are shown as
    /// `REDACTED`, so error messages and logs built from it never carry them.
    public var description: String {
        "\(method) \(DebugText.printable(Redactor.default.redactedURL(of: self)))"
    }
}

extension HTTPRequest: CustomDebugStringConvertible {
    /// Method, URL, headers and body for people; binary bodies are shown as size and hex, never a crash. What
    /// ``Redactor/default`` hides (credential headers, secret body fields, a URL password) shows `REDACTED`.
    public var debugDescription: String {
        var lines = [description]
        if !headers.isEmpty { lines.append(headers.description) }
        if let body { lines.append(body.description) }
        return lines.joined(separator: "\n")
    }
}
