// #34 nested TextCharset in its owner as HTTPResponse.Charset;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``HTTPResponse/Charset``.
@available(*, deprecated, renamed: "HTTPResponse.Charset")
public typealias TextCharset = HTTPResponse.Charset
