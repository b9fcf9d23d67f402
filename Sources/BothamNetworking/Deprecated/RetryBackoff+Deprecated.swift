// #34 nested RetryBackoff in its owner as RetryPolicy.Backoff;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``RetryPolicy/Backoff``.
@available(*, deprecated, renamed: "RetryPolicy.Backoff")
public typealias RetryBackoff = RetryPolicy.Backoff
