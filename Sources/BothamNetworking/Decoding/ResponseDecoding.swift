import Foundation

/// How an endpoint turns the accepted ``HTTPResponse`` into its `Response` value.
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let issues = Endpoint<[Issue]>(.get, "/issues", decoding: .json(decoder))
/// ```
///
/// Each decoding may carry its inverse, `encoder`: the response that decodes to a given value, which test doubles
/// answer typed endpoints with (`StubHTTPClient`'s `stub(_:with:)`). The library's decodings have one; a decoding
/// made from a closure has one only when you give it.
public struct ResponseDecoding<Response: Sendable>: Sendable {
    private let body: @Sendable (HTTPResponse) throws(APIClientError) -> Response
    /// The inverse of this decoding: from a value, the response it decodes back to. `json(_:emptyResponses:)`
    /// mirrors its decoder's strategies into a `JSONEncoder`; `propertyList`, `string`, `data` and `response` have
    /// theirs; `nil` for a decoding made from a closure without one.
    package let encoder: ResponseEncoding<Response>?

    /// A decoding from a function; throw ``APIClientError/parsingError(body:underlying:)`` for bodies it cannot read.
    /// It has no `encoder` (use `init(_:encoder:)` to give it one).
    public init(_ decode: @escaping @Sendable (HTTPResponse) throws(APIClientError) -> Response) {
        self.init(decode, encoder: nil)
    }

    /// A decoding from a function, with its inverse `encoder` (the response that decodes to a value).
    package init(
        _ decode: @escaping @Sendable (HTTPResponse) throws(APIClientError) -> Response,
        encoder: ResponseEncoding<Response>?
    ) {
        body = decode
        self.encoder = encoder
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
    ///
    /// The test kit's typed endpoint stubs encode a value back with the inverse of `decoder`'s date, data, key and
    /// non-conforming float strategies; a `.custom` strategy has none, nor has a type that is only `Decodable`.
    public static func json(
        _ decoder: JSONDecoder = JSONDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseDecoding<Response> {
        let encoder = ResponseEncoding<Response>.encodable(
            contentType: "application/json", emptyResponses: emptyResponses
        ) { try JSONEncoder.mirroring(decoder).encode($0) }
        return ResponseDecoding(
            { response throws(APIClientError) in
                try response.decoded(as: Response.self, decoder: decoder, emptyResponses: emptyResponses)
            }, encoder: encoder)
    }

    /// A property list (XML or binary) decoded with `decoder`, with the same empty-body rule as
    /// ``json(_:emptyResponses:)``.
    ///
    /// Its `encoder` writes what `ResponseEncoding.propertyList(_:emptyResponses:)` writes (binary; the decoder
    /// reads either format).
    public static func propertyList(
        _ decoder: PropertyListDecoder = PropertyListDecoder(),
        emptyResponses: EmptyResponsePolicy = .default
    ) -> ResponseDecoding<Response> {
        ResponseDecoding(
            { response throws(APIClientError) in
                try response.decodedPropertyList(as: Response.self, decoder: decoder, emptyResponses: emptyResponses)
            },
            encoder: .encodable(contentType: "application/x-plist", emptyResponses: emptyResponses) {
                try PropertyListEncoder().encode($0)
            })
    }
}

extension ResponseDecoding where Response == String {
    /// The body as text in the charset its `Content-Type` names, with `defaultCharset` (UTF-8) for responses that
    /// name none; see ``HTTPResponse/string(defaultCharset:)``.
    public static func string(defaultCharset: HTTPResponse.Charset = .utf8) -> ResponseDecoding<String> {
        ResponseDecoding(
            { response throws(APIClientError) in try response.string(defaultCharset: defaultCharset) },
            encoder: .string)
    }
}

extension ResponseDecoding where Response == Data {
    /// The body bytes as they arrived.
    public static var data: ResponseDecoding<Data> { ResponseDecoding({ $0.body }, encoder: .data) }
}

extension ResponseDecoding where Response == HTTPResponse {
    /// The whole response: status, headers, body and request.
    public static var response: ResponseDecoding<HTTPResponse> { ResponseDecoding({ $0 }, encoder: .response) }
}
