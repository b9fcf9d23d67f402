import Foundation

extension HTTPResponse {
    /// The body decoded as `Value` with `decoder`, where an empty body that `emptyResponses` allows gives the
    /// ``EmptyResponse`` value instead of a parsing error: by default (``EmptyResponsePolicy/default``) an empty
    /// `204`, `205`, `304` or `HEAD` response decodes to ``Empty`` (or `nil` for an `Optional`).
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` keeping the body, when it cannot be decoded.
    public func decoded<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) throws(APIClientError) -> Value {
        try decodedBody(emptyResponses) { try decoder.decode(Value.self, from: $0) }
    }

    /// The body decoded from a property list (XML or binary) as `Value`, with the same empty-body rule as
    /// ``decoded(as:decoder:emptyResponses:)``.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` keeping the body, when it cannot be decoded.
    package func decodedPropertyList<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: PropertyListDecoder = PropertyListDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) throws(APIClientError) -> Value {
        try decodedBody(emptyResponses) { try decoder.decode(Value.self, from: $0) }
    }

    /// The empty value `emptyResponses` allows for this response, else `decode(body)`; a decoding error becomes
    /// ``APIClientError/parsingError(body:underlying:)`` keeping the body.
    private func decodedBody<Value>(
        _ emptyResponses: EmptyResponsePolicy, _ decode: (Data) throws -> Value
    ) throws(APIClientError) -> Value {
        if let empty = emptyResponses.emptyValue(of: Value.self, for: self) { return empty }
        do {
            return try decode(body)
        } catch {
            throw .parsingError(body: body, underlying: error)
        }
    }

    /// The body as a ``JSONValue``.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` when the body is not JSON.
    public func json() throws(APIClientError) -> JSONValue {
        try decoded(as: JSONValue.self)
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The successor of Botham's `mapJSON`: decodes a successful response's body as `Value`.
    public func decoded<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) -> Result<Value, APIClientError> {
        flatMap { response in
            Result<Value, APIClientError> { () throws(APIClientError) in try response.decoded(decoder: decoder) }
        }
    }

    /// Botham's `mapJSON`: reads a successful response's body as JSON and transforms it.
    package func mapJSON<Value>(_ transform: (JSONValue) throws -> Value) -> Result<Value, APIClientError> {
        flatMap { response in
            let json: JSONValue
            do throws(APIClientError) {
                json = try response.json()
            } catch {
                return .failure(error)
            }
            do {
                return .success(try transform(json))
            } catch {
                return .failure(.parsingError(body: response.body, underlying: error))
            }
        }
    }
}
