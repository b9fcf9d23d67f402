import Foundation

extension BothamAPIClient {
    /// A request for this client's base endpoint whose nested `parameters` are encoded by `encoding` (see
    /// ``ParameterEncoding``): in the URL query, or as a form body.
    ///
    /// ```swift
    /// let request = try apiClient.request(.get, "/search", parameters: ["tags": ["a", "b"]], encoding: .default)
    /// let result = await apiClient.send(request)
    /// ```
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the parameters cannot be encoded.
    public func request(
        _ method: HTTPMethod,
        _ path: String,
        parameters: JSONValue,
        encoding: ParameterEncoding,
        headers: HTTPHeaders = [:]
    ) throws(APIClientError) -> HTTPRequest {
        try request(method, path, headers: headers).encodingParameters(parameters, with: encoding)
    }

    /// A request whose parameters are an `Encodable` value, encoded with `encoder` (its date and key strategies
    /// apply) and then by `encoding`.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the value cannot be encoded.
    public func request<Parameters: Encodable>(
        _ method: HTTPMethod,
        _ path: String,
        parameters: Parameters,
        encoding: ParameterEncoding,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:]
    ) throws(APIClientError) -> HTTPRequest {
        try request(method, path, headers: headers).encodingParameters(parameters, with: encoding, encoder: encoder)
    }
}
