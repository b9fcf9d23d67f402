/// A type that has a value for a response without a body, so decoding an allowed empty body (see
/// ``EmptyResponsePolicy``) gives that value instead of a parsing error.
///
/// ``Empty`` and every `Optional` conform: an empty `204` decodes to `Empty()` or to `nil`.
public protocol EmptyResponse {
    /// The value of an empty body.
    static func emptyValue() -> Self
}

extension Optional: EmptyResponse {
    /// `nil`.
    public static func emptyValue() -> Wrapped? { nil }
}
