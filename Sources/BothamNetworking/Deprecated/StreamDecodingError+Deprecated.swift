// #34 nested StreamDecodingError in its owner as HTTPBodyStream.DecodingError;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``HTTPBodyStream/DecodingError``.
@available(*, deprecated, renamed: "HTTPBodyStream.DecodingError")
public typealias StreamDecodingError = HTTPBodyStream.DecodingError
