// #34 nested DownloadOptions in its owner as ResponseBodyDestination.Options;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``ResponseBodyDestination/Options``.
@available(*, deprecated, renamed: "ResponseBodyDestination.Options")
public typealias DownloadOptions = ResponseBodyDestination.Options
