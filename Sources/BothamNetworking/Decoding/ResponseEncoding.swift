import Foundation

/// The inverse of a ``ResponseDecoding``: from a value, the response that decodes back to it.
///
/// Every decoding the library makes has one: ``ResponseDecoding/json(_:emptyResponses:)`` encodes with a
/// `JSONEncoder` mirroring its decoder's strategies, so an endpoint that reads ISO 8601 dates and snake_case keys is
/// answered with ISO 8601 dates and snake_case keys. Test doubles use it to answer a typed endpoint from a value
/// (`StubHTTPClient`'s `stub(_:with:)`); an endpoint that decodes JSON with a closure of its own is answered with
/// ``json(_:emptyResponses:)``.
package struct ResponseEncoding<Response: Sendable>: Sendable {
    private let body: @Sendable (Response, HTTPMethod) throws -> EncodedResponse

    /// An encoding from a function of the value and the request's method (a `HEAD` answer has no body).
    package init(_ encode: @escaping @Sendable (_ value: Response, _ method: HTTPMethod) throws -> EncodedResponse) {
        body = encode
    }

    /// The response a `method` request gets for `value`.
    ///
    /// - Throws: the encoder's error (`EncodingError`), or ``ResponseEncodingError`` when the decoding it mirrors
    ///   has no inverse.
    package func encode(_ value: Response, for method: HTTPMethod = .get) throws -> EncodedResponse {
        try body(value, method)
    }
}

extension ResponseEncoding where Response: Encodable {
    /// JSON encoded with `encoder`, with `Content-Type: application/json`; an empty value (``Empty``, `nil`, any
    /// ``EmptyResponse`` type's ``EmptyResponse/emptyValue()``) that `emptyResponses` allows gets an empty body and the
    /// status that policy allows (`204` by default, `304` for a policy of `[304]`, `200` for `HEAD`), as a server would
    /// answer it.
    package static func json(
        _ encoder: JSONEncoder = JSONEncoder(), emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseEncoding<Response> {
        .encodable(contentType: "application/json", emptyResponses: emptyResponses) { try encoder.encode($0) }
    }

    /// A property list encoded with `encoder` (binary by default), with `Content-Type: application/x-plist` and the
    /// same empty-value rule as `json(_:emptyResponses:)`.
    package static func propertyList(
        _ encoder: PropertyListEncoder = PropertyListEncoder(), emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseEncoding<Response> {
        .encodable(contentType: "application/x-plist", emptyResponses: emptyResponses) { try encoder.encode($0) }
    }
}

extension ResponseEncoding {
    /// An encoding through `encode` for a `Response` that is `Encodable` at run time (the decodings know only that it
    /// is `Decodable`): a value that is its type's empty value and that `emptyResponses` allows gets an empty body and
    /// the policy's status, any other is written by `encode`. A value is empty when it encodes as the empty value
    /// does (`{}` for ``Empty``, `null` for `nil`; for a property list, where `nil` cannot be encoded, also when both
    /// fail).
    ///
    /// - Throws: ``ResponseEncodingError`` when `Response` is not `Encodable`.
    static func encodable(
        contentType: String, emptyResponses: EmptyResponsePolicy,
        _ encode: @escaping @Sendable (any Encodable) throws -> Data
    ) -> ResponseEncoding<Response> {
        ResponseEncoding { value, method in
            guard let encodable = encodable(value) else {
                throw ResponseEncodingError(
                    reason: "\(Response.self) is Decodable but not Encodable (make it Codable)")
            }
            if let status = emptyResponses.emptyStatusCode(for: method),
                let emptyType = Response.self as? any EmptyResponse.Type,
                let empty = (emptyType.emptyValue() as? Response).flatMap(Self.encodable),
                (try? encode(empty)) == (try? encode(encodable))
            {
                return EncodedResponse(statusCode: status)
            }
            return EncodedResponse(headers: [.contentType: contentType], body: try encode(encodable))
        }
    }

    /// `value` as an `Encodable`, when its type is one (`nil` of an `Encodable` optional included).
    private static func encodable(_ value: Response) -> (any Encodable)? {
        guard let type = Response.self as? any Encodable.Type else { return nil }
        func typed<Value: Encodable>(_: Value.Type) -> (any Encodable)? { value as? Value }
        return typed(type)
    }
}

extension ResponseEncoding where Response == String {
    /// The text in UTF-8, with `Content-Type: text/plain; charset=utf-8`.
    package static var string: ResponseEncoding<String> {
        ResponseEncoding { text, _ in
            EncodedResponse(headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
        }
    }
}

extension ResponseEncoding where Response == Data {
    /// The bytes as they are, with `Content-Type: application/octet-stream`.
    package static var data: ResponseEncoding<Data> {
        ResponseEncoding { bytes, _ in
            EncodedResponse(headers: [.contentType: "application/octet-stream"], body: bytes)
        }
    }
}

extension ResponseEncoding where Response == HTTPResponse {
    /// The response's own status, header fields and body.
    package static var response: ResponseEncoding<HTTPResponse> {
        ResponseEncoding { response, _ in
            EncodedResponse(statusCode: response.statusCode, headers: response.headers, body: response.body)
        }
    }
}
