/// How one check ended.
public enum ConformanceOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The transport kept the guarantee.
    case passed
    /// The transport broke the guarantee: `reason` says what it did, and what the check expected instead.
    case failed(reason: String)
    /// The check was not run: the user skipped it, for the stated `reason` (a transport without streaming, say).
    case notApplicable(reason: String)

    /// Whether the check failed.
    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }

    /// `passed`, `FAILED: reason` or `not applicable: reason`.
    public var description: String {
        switch self {
        case .passed: return "passed"
        case .failed(let reason): return "FAILED: \(reason)"
        case .notApplicable(let reason): return "not applicable: \(reason)"
        }
    }
}
