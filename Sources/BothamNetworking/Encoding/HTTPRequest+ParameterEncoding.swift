import Foundation

extension HTTPRequest {
    /// A copy with `parameters` encoded by `encoding`: appended to the URL query, or sent as an
    /// `application/x-www-form-urlencoded` body (the body replaces any other; a `Content-Type` the request already
    /// has is kept).
    ///
    /// ```swift
    /// let request = try apiClient.request(.get, "/issues")
    ///     .encodingParameters(["state": "open", "labels": ["bug", "ui"]], with: .default)
    /// ```
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the parameters cannot be encoded.
    package func encodingParameters(
        _ parameters: JSONValue,
        with encoding: ParameterEncoding = .default
    ) throws(APIClientError) -> HTTPRequest {
        let items = try encoding.items(for: parameters)
        return encoding.encodesInQuery(for: method) ? appendingParameters(items) : withBody(.form(items))
    }

    /// A copy with an `Encodable` value encoded as parameters (see ``encodingParameters(_:with:)``); `encoder`'s
    /// date, data and key strategies apply.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the value cannot be encoded.
    package func encodingParameters<Value: Encodable>(
        _ value: Value,
        with encoding: ParameterEncoding = .default,
        encoder: JSONEncoder
    ) throws(APIClientError) -> HTTPRequest {
        try encodingParameters(ParameterEncoding.parameters(from: value, encoder: encoder), with: encoding)
    }
}
