import BothamNetworking

extension StubHTTPClient {
    /// Answers the requests of a typed endpoint with `value`, encoded with the endpoint's own coding strategy, so a
    /// test never writes JSON by hand:
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.dateDecodingStrategy = .iso8601
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let endpoint = Endpoint<Todo>(.get, "/todos/1", decoder: decoder)
    ///
    /// try stubClient.stub(endpoint, with: Todo(id: 1, dueAt: date))   // {"due_at":"2023-11-14T22:13:20Z","id":1}
    /// #expect(try await apiClient.value(for: endpoint) == Todo(id: 1, dueAt: date))
    /// ```
    ///
    /// - **Which requests:** the endpoint's method and path, and the query items it fixes
    ///   (``RequestMatcher/endpoint(_:)``); like any stub, it takes precedence over the stubs added before it.
    /// - **How it is encoded:** `ResponseDecoding/encoder`. A JSON endpoint's encoder mirrors its decoder's
    ///   date (`.iso8601`, `.secondsSince1970`, `.millisecondsSince1970`, …), data (`.base64`, …), key
    ///   (`.convertFromSnakeCase` → `.convertToSnakeCase`) and non-conforming float strategies; a `.custom` one has
    ///   no inverse and throws. An endpoint that decodes with a closure of its own has no encoder
    ///   (``EndpointStubError/noEncoder(endpoint:)``): stub it with a ``StubResponse`` such as
    ///   ``StubResponse/json(_:statusCode:headers:)`` and ``RequestMatcher/endpoint(_:)``.
    /// - **Empty values:** `Empty`, `nil` and other `EmptyResponse` values that the endpoint's
    ///   `EmptyResponsePolicy` allows are answered with no body and the status the policy allows (`204` by default,
    ///   `304` for a policy of `[304]` — the endpoint must then accept it —, `200` for `HEAD`); under
    ///   `EmptyResponsePolicy/never` they are encoded (`{}`, `null`).
    /// - **Status and headers:** `200` unless the value is empty or `statusCode` says otherwise; `headers` are added
    ///   to the encoder's `Content-Type`.
    /// - **Checked now:** the endpoint's own decoding must read the answer back — as the same value, when it is
    ///   `Equatable` — or the stub is refused with an ``EndpointStubError``, here rather than in the call under test.
    ///
    /// - Throws: ``EndpointStubError``, or the encoder's own error (`EncodingError`, or why a strategy cannot be
    ///   inverted).
    public func stub<Convertible: EndpointConvertible>(
        _ endpoint: Convertible,
        with value: Convertible.Response,
        statusCode: Int? = nil,
        headers: HTTPHeaders = [:],
        then: Exhaustion = .repeatLast
    ) throws {
        try stub(endpoint, with: value, statusCode: statusCode, headers: headers, encoder: nil, then: then)
    }

    /// ``stub(_:with:statusCode:headers:then:)`` with `encoder` (when not `nil`) instead of the endpoint's own.
    package func stub<Convertible: EndpointConvertible>(
        _ endpoint: Convertible,
        with value: Convertible.Response,
        statusCode: Int? = nil,
        headers: HTTPHeaders = [:],
        encoder: ResponseEncoding<Convertible.Response>?,
        then: Exhaustion = .repeatLast
    ) throws {
        let answer = try StubResponse.value(
            value, for: endpoint, statusCode: statusCode, headers: headers, encoder: encoder)
        stub(.endpoint(endpoint), with: [answer], then: then)
    }
}
