// #34 nested PropertyListFormat in its owner as HTTPBody.PropertyListFormat;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``HTTPBody/PropertyListFormat``.
@available(*, deprecated, renamed: "HTTPBody.PropertyListFormat")
public typealias PropertyListFormat = HTTPBody.PropertyListFormat
