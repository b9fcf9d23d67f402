import BothamNetworking
import Foundation

extension StubResponse {
    /// The answer `endpoint` decodes to `value`, made with the endpoint's own coding strategy
    /// (`ResponseDecoding/encoder`: for a JSON endpoint, a `JSONEncoder` mirroring its decoder's date, data and key
    /// strategies), so a test never writes the JSON by hand. Use it in a sequence of answers:
    ///
    /// ```swift
    /// // The first attempt gets 503, the retry the todo.
    /// stubClient.stub(.endpoint(TodosAPI.get(id: 1)), with: .response(statusCode: 503),
    ///                 try .value(todo, for: TodosAPI.get(id: 1)))
    /// ```
    ///
    /// See ``StubHTTPClient/stub(_:with:statusCode:headers:then:)`` for the rules (empty values, status, the check
    /// that the answer decodes back).
    ///
    /// - Throws: ``EndpointStubError`` when the endpoint has no encoder, cannot be encoded, or would not read the
    ///   answer back as `value`; the encoder's own error (`EncodingError`, or why a strategy cannot be inverted).
    public static func value<Convertible: EndpointConvertible>(
        _ value: Convertible.Response,
        for endpoint: Convertible,
        statusCode: Int? = nil,
        headers: HTTPHeaders = [:]
    ) throws -> StubResponse {
        try Self.value(value, for: endpoint, statusCode: statusCode, headers: headers, encoder: nil)
    }

    /// ``value(_:for:statusCode:headers:)`` with `encoder` (when not `nil`) instead of the endpoint's own.
    package static func value<Convertible: EndpointConvertible>(
        _ value: Convertible.Response,
        for endpoint: Convertible,
        statusCode: Int? = nil,
        headers: HTTPHeaders = [:],
        encoder: ResponseEncoding<Convertible.Response>?
    ) throws -> StubResponse {
        let endpoint = endpoint.endpoint
        let route: EndpointRoute
        do {
            route = try EndpointRoute(endpoint)
        } catch {
            throw EndpointStubError.invalidEndpoint(
                endpoint: "\(endpoint.method) \(endpoint.path)", underlying: error)
        }
        guard let encoding = encoder ?? endpoint.decoding.encoder else {
            throw EndpointStubError.noEncoder(endpoint: route.description)
        }
        var encoded = try encoding.encode(value, for: endpoint.method)
        if let statusCode { encoded.statusCode = statusCode }
        encoded.headers = encoded.headers.merging(headers)
        try checkRoundTrip(of: value, through: encoded, endpoint: endpoint, route: route)
        return .response(statusCode: encoded.statusCode, headers: encoded.headers, body: encoded.body)
    }

    /// Throws unless the endpoint's decoding reads `encoded` (as the stub will serve it) back as `value`; equality is
    /// checked when the value is `Equatable` (an `HTTPResponse` is not compared: its request is the real one).
    private static func checkRoundTrip<Response>(
        of value: Response, through encoded: EncodedResponse, endpoint: Endpoint<Response>, route: EndpointRoute
    ) throws(EndpointStubError) {
        let request = HTTPRequest(method: endpoint.method, baseEndpoint: EndpointRoute.base, path: endpoint.path)
        let served = HTTPResponse(
            statusCode: encoded.statusCode, headers: encoded.headers,
            body: endpoint.method == .head ? Data() : encoded.body, request: request)
        let decoded: Response
        do {
            decoded = try endpoint.decoding.decode(served)
        } catch {
            throw .doesNotDecode(endpoint: route.description, underlying: error)
        }
        guard Response.self != HTTPResponse.self, let same = equal(value, decoded), !same else { return }
        throw .decodesDifferently(endpoint: route.description, stubbed: "\(value)", decoded: "\(decoded)")
    }

    /// Whether `lhs == rhs`, when their type is `Equatable`; `nil` when it is not.
    private static func equal<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        return lhs.isEqual(to: rhs)
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
