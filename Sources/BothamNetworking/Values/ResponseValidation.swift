/// Which responses are accepted, and the error a rejected one ends the call with: the one validation rule of the
/// library, whether it runs as the client's ``BothamAPIClient/Configuration/validation`` (after every response
/// interceptor) or as a ``ValidationInterceptor`` (at its place among them).
///
/// ```swift
/// let rule = ResponseValidation.statusCodes(200...304).acceptingContentTypes(["application/json", "text/*"])
/// let apiClient = BothamAPIClient(
///     baseEndpoint: "https://api.example.com", configuration: .init(validation: rule))
/// ```
///
/// A request can carry its own rule (``HTTPRequest/accepting(_:)``, ``Endpoint/accepting(_:)``), which replaces the
/// client's for that call.
///
/// - A rejected status ends the call with ``APIClientError/httpResponseError(_:)``.
/// - A rejected `Content-Type` (see ``acceptingContentTypes(_:)``) ends it with
///   ``APIClientError/interceptorError(underlying:)`` holding an ``UnacceptableContentType``, wherever the rule runs.
public struct ResponseValidation: Sendable {
    /// The error of a response whose content type is not acceptable.
    public struct UnacceptableContentType: Error, Sendable, CustomStringConvertible {
        /// The response's `Content-Type`, or `nil` when it had none.
        package let contentType: String?
        /// The acceptable patterns.
        package let acceptable: [String]
        /// The response.
        package let response: HTTPResponse

        /// Names the content type and what was acceptable.
        public var description: String {
            let received = contentType.map(DebugText.quoted) ?? "no Content-Type"
            return "Unacceptable content type \(received); expected one of \(acceptable.joined(separator: ", "))"
        }
    }

    /// The error `response` is rejected with, or `nil` when it is accepted.
    private let rejection: @Sendable (HTTPResponse) -> APIClientError?

    private init(rejection: @escaping @Sendable (HTTPResponse) -> APIClientError?) {
        self.rejection = rejection
    }

    /// Accepts responses for which `predicate` returns `true`; the others end with
    /// ``APIClientError/httpResponseError(_:)``.
    public init(_ predicate: @escaping @Sendable (HTTPResponse) -> Bool) {
        rejection = { response in predicate(response) ? nil : .httpResponseError(response) }
    }

    /// Whether `response` is accepted.
    public func accepts(_ response: HTTPResponse) -> Bool {
        rejection(response) == nil
    }

    /// Returns when `response` is accepted.
    ///
    /// - Throws: ``APIClientError/httpResponseError(_:)`` for a rejected status, or
    ///   ``APIClientError/interceptorError(underlying:)`` holding an ``UnacceptableContentType``.
    package func validate(_ response: HTTPResponse) throws(APIClientError) {
        if let error = rejection(response) { throw error }
    }

    /// Accepts 2xx responses (the default, as in Botham).
    public static let successfulStatusCodes = ResponseValidation { $0.status.kind == .successful }

    /// What this rule accepts, and also every response whose status is one of `statusCodes` (whatever else the rule
    /// checks, a content type included): `.successfulStatusCodes.adding(304)` accepts 2xx and `304 Not Modified`.
    public func adding(_ statusCodes: Int...) -> ResponseValidation {
        adding(Set(statusCodes))
    }

    /// What this rule accepts, and also every response whose status is in `statusCodes`.
    package func adding(_ statusCodes: Set<Int>) -> ResponseValidation {
        ResponseValidation { [rejection] response in
            statusCodes.contains(response.statusCode) ? nil : rejection(response)
        }
    }

    /// Accepts every response: status codes are left to the caller.
    public static let acceptAll = ResponseValidation { _ in true }

    /// Accepts status codes in `codes`.
    public static func statusCodes(_ codes: some RangeExpression<Int> & Sendable) -> ResponseValidation {
        ResponseValidation { codes.contains($0.statusCode) }
    }

    /// Accepts status codes in any of `ranges`.
    static func statusCodes(in ranges: [ClosedRange<Int>]) -> ResponseValidation {
        ResponseValidation { response in ranges.contains { $0.contains(response.statusCode) } }
    }

    /// What this rule accepts whose `Content-Type` also matches one of `patterns` (`type/subtype`, or with
    /// wildcards: `application/*`, `*/*`; case and parameters such as `charset` are ignored). A response with an
    /// empty body is not checked; a non-empty one without a `Content-Type` is rejected.
    public func acceptingContentTypes(_ patterns: [String]) -> ResponseValidation {
        let wanted = patterns.map(MediaType.essence)
        return ResponseValidation { [rejection] response in
            if let error = rejection(response) { return error }
            guard !response.body.isEmpty else { return nil }
            let contentType = response.headers[.contentType]
            if let essence = contentType.map(MediaType.essence),
                wanted.contains(where: { MediaType.essence(essence, matches: $0) })
            {
                return nil
            }
            return .interceptorError(
                underlying: UnacceptableContentType(contentType: contentType, acceptable: patterns, response: response))
        }
    }
}
