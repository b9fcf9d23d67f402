// #34 nested StreamedRequestBody in its owner as HTTPBody.Stream;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``HTTPBody/Stream``.
@available(*, deprecated, renamed: "HTTPBody.Stream")
public typealias StreamedRequestBody = HTTPBody.Stream
