// #34 nested DownloadDestinationError in its owner as ResponseBodyDestination.Failure;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``ResponseBodyDestination/Failure``.
@available(*, deprecated, renamed: "ResponseBodyDestination.Failure")
public typealias DownloadDestinationError = ResponseBodyDestination.Failure
