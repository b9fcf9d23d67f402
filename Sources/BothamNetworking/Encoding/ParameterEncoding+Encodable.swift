import Foundation

extension ParameterEncoding {
    /// An `Encodable` value as parameters: encoded with `encoder` (so its date, data and key strategies apply) and
    /// read back as a ``JSONValue``.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the value cannot be encoded (NaN with the default
    ///   float strategy, a failing `encode(to:)`).
    package static func parameters<Value: Encodable>(
        from value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) throws(APIClientError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
        } catch {
            throw .invalidRequest(reason: "the \(Value.self) parameters could not be encoded: \(error)")
        }
    }

    /// The flat, not yet escaped pairs for an `Encodable` value, which must encode to a dictionary.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the value cannot be encoded.
    package func items<Value: Encodable>(
        for value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) throws(APIClientError) -> HTTPParameters {
        try items(for: Self.parameters(from: value, encoder: encoder))
    }
}
