extension LoggingInterceptor.Sink {
    /// The severity of a log line, shaped like swift-log's `Logger.Level` so lines forward one-to-one.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// Very detailed tracing.
        case trace
        /// Debugging information.
        case debug
        /// Informational messages.
        case info
        /// Normal but significant conditions.
        case notice
        /// Warnings.
        case warning
        /// Errors.
        case error
        /// Critical errors.
        case critical

        private var rank: Int {
            switch self {
            case .trace: return 0
            case .debug: return 1
            case .info: return 2
            case .notice: return 3
            case .warning: return 4
            case .error: return 5
            case .critical: return 6
            }
        }
    }
}

extension LoggingInterceptor.Sink.Level: Comparable {
    /// Orders levels from ``trace`` (lowest) to ``critical``.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rank < rhs.rank
    }
}
