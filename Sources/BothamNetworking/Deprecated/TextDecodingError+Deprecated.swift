// #34 nested TextDecodingError in its owner as HTTPResponse.Charset.DecodingError;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``HTTPResponse/Charset/DecodingError``.
@available(*, deprecated, renamed: "HTTPResponse.Charset.DecodingError")
public typealias TextDecodingError = HTTPResponse.Charset.DecodingError
