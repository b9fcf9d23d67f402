extension BothamAPIClient {
    /// Sends an endpoint's request through every interceptor and the transport, and decodes the accepted response.
    ///
    /// ```swift
    /// switch await apiClient.send(TodosAPI.get(id: 1)) {
    /// case .success(let todo): print(todo.title)
    /// case .failure(let error): print(error)
    /// }
    /// ```
    ///
    /// An endpoint that cannot be encoded ends with ``APIClientError/invalidRequest(reason:)`` and nothing is sent;
    /// a body that cannot be decoded ends with ``APIClientError/parsingError(body:underlying:)``.
    public func send<Convertible: EndpointConvertible>(
        _ endpoint: Convertible
    ) async -> Result<Convertible.Response, APIClientError> {
        let endpoint = endpoint.endpoint
        let request: HTTPRequest
        do {
            request = try endpoint.request(for: self)
        } catch {
            return .failure(error)
        }
        return await send(request).flatMap { response in
            Result { () throws(APIClientError) in try endpoint.decoding.decode(response) }
        }
    }

    /// Sends an endpoint and returns its decoded value, throwing ``APIClientError`` on failure.
    ///
    /// ```swift
    /// let todo = try await apiClient.value(for: TodosAPI.get(id: 1))
    /// ```
    public func value<Convertible: EndpointConvertible>(
        for endpoint: Convertible
    ) async throws(APIClientError) -> Convertible.Response {
        try await send(endpoint).get()
    }

    /// Sends an endpoint and calls `completion` exactly once with the decoded result, on the configuration's
    /// ``Configuration/completionQueue`` when it has one. Cancelling the handle ends the call with
    /// ``APIClientError/cancelled``.
    @discardableResult
    public func send<Convertible: EndpointConvertible>(
        _ endpoint: Convertible,
        completion: @escaping @Sendable (Result<Convertible.Response, APIClientError>) -> Void
    ) -> CancellableCall {
        .start(deliveringOn: configuration.completionQueue, completion: completion) { await self.send(endpoint) }
    }
}
