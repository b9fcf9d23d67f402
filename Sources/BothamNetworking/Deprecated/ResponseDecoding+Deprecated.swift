// #34 folded `ResponseDecoding.string` into `string(defaultCharset:)`, whose charset defaults to UTF-8; the property
// keeps compiling for at least one minor version.

extension ResponseDecoding where Response == String {
    /// The body as text in the charset of its `Content-Type` (UTF-8 when it names none).
    @available(*, deprecated, renamed: "string()")
    public static var string: ResponseDecoding<String> { string() }
}
