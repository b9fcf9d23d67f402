/// A ``ResponseValidation`` run as a response interceptor, at its place among the others (before the client's own
/// validation).
///
/// ```swift
/// apiClient.responseInterceptors.append(
///     ValidationInterceptor(acceptableStatusCodes: [200...299], acceptableContentTypes: ["application/json"]))
/// ```
///
/// It runs a ``ResponseValidation``: the acceptable status codes, then
/// ``ResponseValidation/acceptingContentTypes(_:)`` when there are acceptable content types:
///
/// - An unacceptable status ends the call with ``APIClientError/httpResponseError(_:)``, as the client's
///   validation would.
/// - An unacceptable `Content-Type` ends it with ``APIClientError/interceptorError(underlying:)`` holding an
///   ``ResponseValidation/UnacceptableContentType`` (with the response). Empty bodies skip the content-type check.
///   Patterns may use wildcards: `application/*`, `*/*`; parameters such as `charset` are ignored.
///
/// The client's ``BothamAPIClient/Configuration/validation`` still runs after it: both must accept a response. The
/// one place to state (and widen) the whole rule is that configuration, which takes the same value
/// (`.statusCodes(200...304).acceptingContentTypes(["application/json"])`) and needs no interceptor; use this one
/// when the check must happen before later response interceptors, with the configuration set to
/// ``ResponseValidation/acceptAll``.
///
/// A request that states its own rule (``HTTPRequest/accepting(_:)``, an endpoint's `accepting(_:)`) replaces this
/// interceptor's status codes, as it replaces the configuration's, and the acceptable content types still apply:
/// `.accepting(.successfulStatusCodes.adding(304))` lets a `304` through, a wrong content type is still refused.
public struct ValidationInterceptor: BothamResponseInterceptor {
    /// Acceptable status codes.
    package let acceptableStatusCodes: [ClosedRange<Int>]
    /// Acceptable media types (`type/subtype`, wildcards allowed), or `nil` for any.
    package let acceptableContentTypes: [String]?
    /// The rule this interceptor runs, made of `acceptableStatusCodes` and `acceptableContentTypes`.
    package let validation: ResponseValidation

    /// Creates a validator. The defaults accept 2xx and any content type.
    public init(acceptableStatusCodes: [ClosedRange<Int>] = [200...299], acceptableContentTypes: [String]? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        let statuses = ResponseValidation.statusCodes(in: acceptableStatusCodes)
        validation = acceptableContentTypes.map(statuses.acceptingContentTypes) ?? statuses
    }

    /// The request's own rule with this interceptor's content types, or this interceptor's rule.
    private func rule(for request: HTTPRequest) -> ResponseValidation {
        guard let own = request.validation else { return validation }
        return acceptableContentTypes.map(own.acceptingContentTypes) ?? own
    }

    /// Passes acceptable responses on and fails the others.
    public func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        do throws(APIClientError) {
            try rule(for: request).validate(response)
            return .proceed(response)
        } catch {
            return .fail(error)
        }
    }
}
