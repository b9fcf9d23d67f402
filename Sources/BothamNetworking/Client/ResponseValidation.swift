/// Which responses a client accepts; the others become ``APIClientError/httpResponseError(_:)``.
///
/// Validation runs after every response interceptor.
public struct ResponseValidation: Sendable {
    private let predicate: @Sendable (HTTPResponse) -> Bool

    /// Accepts responses for which `predicate` returns `true`.
    public init(_ predicate: @escaping @Sendable (HTTPResponse) -> Bool) {
        self.predicate = predicate
    }

    /// Whether `response` is accepted.
    public func accepts(_ response: HTTPResponse) -> Bool {
        predicate(response)
    }

    /// Accepts 2xx responses (the default, as in Botham).
    public static let successfulStatusCodes = ResponseValidation { $0.status.kind == .successful }

    /// Accepts every response: status codes are left to the caller.
    public static let acceptAll = ResponseValidation { _ in true }

    /// Accepts status codes in `codes`.
    public static func statusCodes(_ codes: some RangeExpression<Int> & Sendable) -> ResponseValidation {
        ResponseValidation { codes.contains($0.statusCode) }
    }
}
