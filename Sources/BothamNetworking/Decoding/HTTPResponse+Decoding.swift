import Foundation

extension HTTPResponse {
    /// The body decoded as `Value` with `decoder`. An empty `204`, `205` or `HEAD` response decodes to ``Empty`` (or
    /// `nil` for an `Optional`) as ``EmptyResponsePolicy/default`` says.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` keeping the body, when it cannot be decoded.
    public func decoded<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(APIClientError) -> Value {
        try decoded(as: type, decoder: decoder, emptyResponses: .default)
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
    public func mapJSON<Value>(_ transform: (JSONValue) throws -> Value) -> Result<Value, APIClientError> {
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
