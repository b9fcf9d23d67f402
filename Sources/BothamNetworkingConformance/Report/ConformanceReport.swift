/// The outcome of every check a ``TransportConformance`` run ran, in the order it ran them.
///
/// ```swift
/// let report = await TransportConformance { _ in MyHTTPClient() }.run()
/// #expect(report.failed.isEmpty, "\(report)")
/// ```
public struct ConformanceReport: Sendable, Hashable, CustomStringConvertible {
    /// Every check's result.
    public let results: [ConformanceResult]

    /// Creates a report of `results`.
    package init(results: [ConformanceResult]) {
        self.results = results
    }

    /// The results of the checks that passed.
    public var passed: [ConformanceResult] { results.filter { $0.outcome == .passed } }

    /// The results of the checks that failed.
    public var failed: [ConformanceResult] { results.filter(\.outcome.isFailure) }

    /// The results of the checks that were skipped.
    public var notApplicable: [ConformanceResult] {
        results.filter {
            if case .notApplicable = $0.outcome { return true }
            return false
        }
    }

    /// The checks that failed.
    package var failedChecks: Set<ConformanceCheck> { Set(failed.map(\.check)) }

    /// Whether no check failed (skipped checks do not count against it).
    public var conforms: Bool { failed.isEmpty }

    /// The result of `check`, or `nil` when it was not run.
    public subscript(check: ConformanceCheck) -> ConformanceResult? {
        results.first { $0.check == check }
    }

    /// A summary line, then the failures, then the skipped checks, one a line.
    public var description: String {
        var lines = [
            "\(passed.count) passed, \(failed.count) failed, \(notApplicable.count) not applicable of \(results.count) checks"
        ]
        lines += failed.map { "  \($0)" }
        lines += notApplicable.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
