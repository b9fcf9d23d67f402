extension BothamAPIClient {
    /// Sends a request and calls `completion` exactly once with the result, Botham style.
    ///
    /// Without a completion the call is fire-and-forget, as `apiClient.GET("/issues")` was in Botham; from `async`
    /// code prefer the `async` overloads, which return the result.
    ///
    /// The completion runs on the configuration's ``Configuration/completionQueue`` or, when that is `nil`, on the
    /// task that finished the call. Cancelling the returned handle ends the call with ``APIClientError/cancelled``
    /// (the completion is still called, once).
    @discardableResult
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        let (pipeline, completionQueue) = callStart()
        return .start(deliveringOn: completionQueue, completion: completion) {
            await pipeline.run(request)
        }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `GET path` and calls `completion` with the result.
    @discardableResult
    public func GET(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.get, path, parameters: parameters, headers: headers), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `POST path` and calls `completion` with the result.
    @discardableResult
    public func POST(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.post, path, parameters: parameters, headers: headers, body: body), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `PUT path` and calls `completion` with the result.
    @discardableResult
    public func PUT(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.put, path, parameters: parameters, headers: headers, body: body), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `DELETE path` and calls `completion` with the result.
    @discardableResult
    public func DELETE(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.delete, path, parameters: parameters, headers: headers, body: body), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `PATCH path` and calls `completion` with the result.
    @discardableResult
    public func PATCH(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.patch, path, parameters: parameters, headers: headers, body: body), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `HEAD path` and calls `completion` with the result.
    @discardableResult
    public func HEAD(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.head, path, parameters: parameters, headers: headers), completion: completion)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // Botham's verb names are part of the public contract.
    /// Sends `OPTIONS path` and calls `completion` with the result.
    @discardableResult
    public func OPTIONS(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        completion: @escaping @Sendable (Result<HTTPResponse, APIClientError>) -> Void = { _ in }
    ) -> CancellableCall {
        send(request(.options, path, parameters: parameters, headers: headers), completion: completion)
    }
}
