// #34 nested RandomSource in its owner as RetryPolicy.Random;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``RetryPolicy/Random``.
@available(*, deprecated, renamed: "RetryPolicy.Random")
public typealias RandomSource = RetryPolicy.Random
