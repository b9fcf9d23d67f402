import BothamNetworking

/// Why ``StubHTTPClient/stub(_:with:statusCode:headers:then:)`` (or ``StubResponse/value(_:for:statusCode:headers:)``)
/// refused a typed stub. It checks at stub time that the answer it makes decodes back, so a stub that could never
/// work fails where it is written, not in the call under test.
public enum EndpointStubError: Error, Sendable, CustomStringConvertible {
    /// The endpoint decodes with a closure of its own and has no encoder: stub it with a ``StubResponse`` (such as
    /// ``StubResponse/json(_:statusCode:headers:)``) matched by ``RequestMatcher/endpoint(_:)``.
    case noEncoder(endpoint: String)
    /// The endpoint's parameters or path cannot be encoded, so no request of it could be matched.
    case invalidEndpoint(endpoint: String, underlying: APIClientError)
    /// The endpoint's own decoding cannot read the encoded answer back (a key the snake_case conversion does not
    /// invert, such as `userID` → `user_id` → `userId`).
    case doesNotDecode(endpoint: String, underlying: APIClientError)
    /// The endpoint's decoding reads the encoded answer back as another value (a strategy that loses precision, such
    /// as `.iso8601` and fractional seconds). Checked for `Equatable` values.
    case decodesDifferently(endpoint: String, stubbed: String, decoded: String)

    /// What went wrong, naming the endpoint.
    public var description: String {
        switch self {
        case .noEncoder(let endpoint):
            return "\(endpoint) decodes with a closure of its own: stub it with a StubResponse (.json, .response)"
        case .invalidEndpoint(let endpoint, let underlying):
            return "\(endpoint) cannot be encoded: \(underlying)"
        case .doesNotDecode(let endpoint, let underlying):
            return "\(endpoint): its decoding cannot read the stubbed answer back: \(underlying)"
        case .decodesDifferently(let endpoint, let stubbed, let decoded):
            return "\(endpoint): its decoding reads the stubbed \(stubbed) back as \(decoded)"
        }
    }
}
