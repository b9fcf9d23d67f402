// The release before ResponseValidation owned the whole rule nested this error in ValidationInterceptor (#34: a
// moved type keeps a deprecated shim for at least one minor version).

extension ValidationInterceptor {
    /// A response whose `Content-Type` the validation does not accept.
    @available(*, deprecated, renamed: "ResponseValidation.UnacceptableContentType")
    public typealias UnacceptableContentType = ResponseValidation.UnacceptableContentType
}
