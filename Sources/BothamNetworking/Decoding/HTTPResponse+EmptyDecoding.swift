import Foundation

extension HTTPResponse {
    /// The body decoded as `Value` with `decoder`, where an empty body that `emptyResponses` allows gives the
    /// ``EmptyResponse`` value (``Empty/value``, `nil`) instead of a parsing error.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` keeping the body, when it cannot be decoded.
    public func decoded<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder(),
        emptyResponses: EmptyResponsePolicy
    ) throws(APIClientError) -> Value {
        if let empty = emptyResponses.emptyValue(of: Value.self, for: self) { return empty }
        do {
            return try decoder.decode(Value.self, from: body)
        } catch {
            throw .parsingError(body: body, underlying: error)
        }
    }

    /// The body decoded from a property list (XML or binary) as `Value`, with the same empty-body rule as
    /// ``decoded(as:decoder:emptyResponses:)``.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` keeping the body, when it cannot be decoded.
    public func decodedPropertyList<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: PropertyListDecoder = PropertyListDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) throws(APIClientError) -> Value {
        if let empty = emptyResponses.emptyValue(of: Value.self, for: self) { return empty }
        do {
            return try decoder.decode(Value.self, from: body)
        } catch {
            throw .parsingError(body: body, underlying: error)
        }
    }
}
