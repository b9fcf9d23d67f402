// #34 nested TransferProgressReporter in its owner as TransferProgress.Reporter;
// the top-level name keeps compiling for at least one minor version.

/// The earlier name of ``TransferProgress/Reporter``.
@available(*, deprecated, renamed: "TransferProgress.Reporter")
public typealias TransferProgressReporter = TransferProgress.Reporter
