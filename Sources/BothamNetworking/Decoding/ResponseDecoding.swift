import Foundation

/// How an endpoint turns the accepted ``HTTPResponse`` into its `Response` value.
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let issues = Endpoint<[Issue]>(.get, "/issues", decoding: .json(decoder))
/// ```
public struct ResponseDecoding<Response: Sendable>: Sendable {
    private let body: @Sendable (HTTPResponse) throws(APIClientError) -> Response

    /// A decoding from a function; throw ``APIClientError/parsingError(body:underlying:)`` for bodies it cannot read.
    public init(_ decode: @escaping @Sendable (HTTPResponse) throws(APIClientError) -> Response) {
        body = decode
    }

    /// The value of `response`.
    ///
    /// - Throws: the decoding's error, usually ``APIClientError/parsingError(body:underlying:)``.
    public func decode(_ response: HTTPResponse) throws(APIClientError) -> Response {
        try body(response)
    }
}

extension ResponseDecoding where Response: Decodable {
    /// JSON decoded with `decoder`; an empty body that `emptyResponses` allows gives ``Empty`` (or `nil` for an
    /// `Optional` response) instead of a parsing error.
    public static func json(
        _ decoder: JSONDecoder = JSONDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseDecoding<Response> {
        ResponseDecoding { response throws(APIClientError) in
            try response.decoded(as: Response.self, decoder: decoder, emptyResponses: emptyResponses)
        }
    }

    /// A property list (XML or binary) decoded with `decoder`, with the same empty-body rule as
    /// ``json(_:emptyResponses:)``.
    public static func propertyList(
        _ decoder: PropertyListDecoder = PropertyListDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseDecoding<Response> {
        ResponseDecoding { response throws(APIClientError) in
            try response.decodedPropertyList(as: Response.self, decoder: decoder, emptyResponses: emptyResponses)
        }
    }
}

extension ResponseDecoding where Response == String {
    /// The body as text in the charset of its `Content-Type` (UTF-8 when it names none); see
    /// ``HTTPResponse/string(defaultCharset:)``.
    public static var string: ResponseDecoding<String> { string(defaultCharset: .utf8) }

    /// The body as text, with `defaultCharset` for responses that name no charset.
    public static func string(defaultCharset: TextCharset) -> ResponseDecoding<String> {
        ResponseDecoding { response throws(APIClientError) in try response.string(defaultCharset: defaultCharset) }
    }
}

extension ResponseDecoding where Response == Data {
    /// The body bytes as they arrived.
    public static var data: ResponseDecoding<Data> { ResponseDecoding { $0.body } }
}

extension ResponseDecoding where Response == HTTPResponse {
    /// The whole response: status, headers, body and request.
    public static var response: ResponseDecoding<HTTPResponse> { ResponseDecoding { $0 } }
}
