/// The outcome of one check, and how long it ran.
public struct ConformanceResult: Sendable, Hashable, CustomStringConvertible {
    /// The check.
    public let check: ConformanceCheck
    /// How it ended.
    public let outcome: ConformanceOutcome
    /// How long it ran (zero for a skipped check).
    public let duration: Duration

    /// Creates a result.
    package init(check: ConformanceCheck, outcome: ConformanceOutcome, duration: Duration) {
        self.check = check
        self.outcome = outcome
        self.duration = duration
    }

    /// One line: the check's id and title, then its outcome.
    public var description: String {
        "\(check.id) (\(check.title)): \(outcome)"
    }
}
