/// Validates status codes and content types as a response interceptor, before the client's own validation.
///
/// ```swift
/// apiClient.responseInterceptors.append(
///     ValidationInterceptor(acceptableStatusCodes: [200...299], acceptableContentTypes: ["application/json"]))
/// ```
///
/// - An unacceptable status ends the call with ``APIClientError/httpResponseError(_:)``, as the client's
///   validation would.
/// - An unacceptable `Content-Type` ends it with ``APIClientError/interceptorError(underlying:)`` holding an
///   ``UnacceptableContentType`` (with the response). Empty bodies skip the content-type check. Patterns may use
///   wildcards: `application/*`, `*/*`; parameters such as `charset` are ignored.
///
/// It composes with ``BothamAPIClient/Configuration/validation``: both must accept a response. To accept more than
/// 2xx (say 304), widen both, or set the client's validation to ``ResponseValidation/acceptAll`` and let this
/// interceptor decide.
public struct ValidationInterceptor: BothamResponseInterceptor {
    /// The error of a response whose content type is not acceptable.
    public struct UnacceptableContentType: Error, Sendable, CustomStringConvertible {
        /// The response's `Content-Type`, or `nil` when it had none.
        public let contentType: String?
        /// The acceptable patterns.
        public let acceptable: [String]
        /// The response.
        public let response: HTTPResponse

        /// Names the content type and what was acceptable.
        public var description: String {
            let received = contentType.map(DebugText.quoted) ?? "no Content-Type"
            return "Unacceptable content type \(received); expected one of \(acceptable.joined(separator: ", "))"
        }
    }

    /// Acceptable status codes.
    public let acceptableStatusCodes: [ClosedRange<Int>]
    /// Acceptable media types (`type/subtype`, wildcards allowed), or `nil` for any.
    public let acceptableContentTypes: [String]?

    /// Creates a validator. The defaults accept 2xx and any content type.
    public init(acceptableStatusCodes: [ClosedRange<Int>] = [200...299], acceptableContentTypes: [String]? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Passes acceptable responses on and fails the others.
    public func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        guard acceptableStatusCodes.contains(where: { $0.contains(response.statusCode) }) else {
            return .fail(.httpResponseError(response))
        }
        guard let acceptable = acceptableContentTypes, !response.body.isEmpty else { return .proceed(response) }
        let contentType = response.headers[.contentType]
        let essence = contentType.map(MediaType.essence)
        if let essence, acceptable.contains(where: { Self.matches(essence, pattern: MediaType.essence($0)) }) {
            return .proceed(response)
        }
        return .fail(
            .interceptorError(
                underlying: UnacceptableContentType(
                    contentType: contentType, acceptable: acceptable, response: response)
            )
        )
    }

    /// Whether a media type essence matches a pattern such as `application/json`, `application/*` or `*/*`.
    static func matches(_ essence: String, pattern: String) -> Bool {
        if pattern == "*/*" || pattern == "*" { return true }
        let parts = essence.split(separator: "/", maxSplits: 1).map(String.init)
        let wanted = pattern.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, wanted.count == 2 else { return false }
        return (wanted[0] == "*" || wanted[0] == parts[0]) && (wanted[1] == "*" || wanted[1] == parts[1])
    }
}
