import Foundation

extension HTTPResponse {
    /// The `charset` parameter of the response's `Content-Type`, unquoted (`charset="utf-8"` gives `utf-8`), or
    /// `nil` when there is none.
    package var charset: String? {
        headers[.contentType].flatMap { MediaType($0).parameter("charset") }
    }

    /// The body as text, in the charset the `Content-Type` names (`defaultCharset`, UTF-8 unless told, when it
    /// names none).
    ///
    /// ```swift
    /// let page = try await apiClient.response(for: apiClient.request(.get, "/legacy")).string()
    /// ```
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` with a ``HTTPResponse/Charset/DecodingError`` and the body, when
    ///   the charset is not supported or the bytes are not valid in it.
    public func string(defaultCharset: HTTPResponse.Charset = .utf8) throws(APIClientError) -> String {
        let textCharset: HTTPResponse.Charset
        let label: String
        if let named = charset {
            guard let known = HTTPResponse.Charset(label: named) else {
                throw .parsingError(
                    body: body,
                    underlying: HTTPResponse.Charset.DecodingError(charset: named, isUnsupportedCharset: true))
            }
            (textCharset, label) = (known, named)
        } else {
            (textCharset, label) = (defaultCharset, "\(defaultCharset)")
        }
        guard let text = textCharset.decode(body) else {
            throw .parsingError(
                body: body, underlying: HTTPResponse.Charset.DecodingError(charset: label, isUnsupportedCharset: false))
        }
        return text
    }
}
