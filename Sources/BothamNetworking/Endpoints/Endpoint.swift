import Foundation

/// One operation of a web service as a value: the request to send and the type of its answer.
///
/// Declare a service's API as endpoints, then send them with any ``BothamAPIClient`` (every interceptor, the retry
/// loop and the validation apply, as for any request):
///
/// ```swift
/// enum TodosAPI {
///     static func list(userId: Int? = nil) -> Endpoint<[Todo]> {
///         Endpoint(.get, "/todos", parameters: userId.map { ["userId": .int($0)] })
///     }
///     static func get(id: Int) -> Endpoint<Todo> { Endpoint(.get, "/todos/\(id)") }
///     static func create(_ todo: NewTodo) -> Endpoint<Todo> { Endpoint(.post, "/todos", body: .json(todo)) }
///     static func delete(id: Int) -> Endpoint<Empty> { Endpoint(.delete, "/todos/\(id)") }
/// }
///
/// let todo = try await apiClient.value(for: TodosAPI.get(id: 1))
/// let result = await apiClient.send(TodosAPI.list(userId: 1))     // Result<[Todo], APIClientError>
/// ```
///
/// `parameters` are encoded by `encoding` (see ``ParameterEncoding``): in the query for `GET`, `HEAD` and `DELETE`,
/// as a form body otherwise, unless told. An endpoint that cannot be encoded fails with
/// ``APIClientError/invalidRequest(reason:)`` and nothing is sent.
public struct Endpoint<Response: Sendable>: Sendable {
    /// The method.
    package var method: HTTPMethod
    /// The path, relative to the client's base endpoint (or an absolute URL).
    package var path: String
    /// Nested parameters, encoded by ``encoding``; `nil` for none.
    package var parameters: JSONValue?
    /// How ``parameters`` are encoded and where they go.
    package var encoding: ParameterEncoding
    /// Header fields of this endpoint; they replace the client's fields of the same name.
    package var headers: HTTPHeaders
    /// The body, or `nil`.
    package var body: HTTPBody?
    /// The per-attempt timeout, or `nil` for the transport's default.
    package var timeout: Duration?
    /// How the accepted response becomes a `Response`.
    package var decoding: ResponseDecoding<Response>
    /// Which responses this endpoint accepts, replacing the client's ``BothamAPIClient/Configuration/validation``
    /// (see ``HTTPRequest/accepting(_:)``); `nil`, the default, uses the client's. Set it with ``accepting(_:)``.
    package var validation: ResponseValidation?

    /// Creates an endpoint with an explicit decoding.
    public init(
        _ method: HTTPMethod,
        _ path: String,
        parameters: JSONValue? = nil,
        encoding: ParameterEncoding = .default,
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        timeout: Duration? = nil,
        decoding: ResponseDecoding<Response>
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.encoding = encoding
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.decoding = decoding
    }

    /// A copy that accepts the responses `validation` accepts, instead of the client's: an endpoint of a conditional
    /// `GET` whose `304` decodes to `nil` (an empty `304` is an empty response, see ``EmptyResponsePolicy``):
    ///
    /// ```swift
    /// static func manifest(etag: String) -> Endpoint<Manifest?> {
    ///     Endpoint<Manifest?>(.get, "/manifest", headers: ["If-None-Match": etag])
    ///         .accepting(.successfulStatusCodes.adding(304))
    /// }
    /// ```
    public func accepting(_ validation: ResponseValidation?) -> Endpoint {
        var copy = self
        copy.validation = validation
        return copy
    }

    /// The request this endpoint sends on `client`.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the parameters cannot be encoded, or when they
    ///   would go in the body and the endpoint also has a body.
    package func request(for client: BothamAPIClient) throws(APIClientError) -> HTTPRequest {
        var request = client.request(method, path, headers: headers, body: body).withTimeout(timeout)
            .accepting(validation)
        if let parameters {
            if body != nil, !encoding.encodesInQuery(for: method) {
                throw .invalidRequest(
                    reason: "\(method) \(DebugText.printable(path)) has both a body and parameters for the body"
                )
            }
            request = try request.encodingParameters(parameters, with: encoding)
        }
        return request
    }
}

extension Endpoint where Response: Decodable {
    /// Creates an endpoint whose JSON response is decoded with `decoder`; an empty `204`, `205`, `304` or `HEAD` response
    /// (see `emptyResponses`) decodes to ``Empty`` or `nil`.
    public init(
        _ method: HTTPMethod,
        _ path: String,
        parameters: JSONValue? = nil,
        encoding: ParameterEncoding = .default,
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        timeout: Duration? = nil,
        decoder: JSONDecoder = JSONDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) {
        self.init(
            method,
            path,
            parameters: parameters,
            encoding: encoding,
            headers: headers,
            body: body,
            timeout: timeout,
            decoding: .json(decoder, emptyResponses: emptyResponses)
        )
    }
}
