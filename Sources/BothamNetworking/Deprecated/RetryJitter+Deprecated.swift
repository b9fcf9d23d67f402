// #34 nested RetryJitter in its owner as RetryPolicy.Jitter;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``RetryPolicy/Jitter``.
@available(*, deprecated, renamed: "RetryPolicy.Jitter")
public typealias RetryJitter = RetryPolicy.Jitter
