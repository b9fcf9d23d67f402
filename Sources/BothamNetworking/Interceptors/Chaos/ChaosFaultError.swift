/// The ``NetworkFailure/underlying`` error of a failure a ``ChaosInterceptor`` injected, so a log or a test can tell
/// a rehearsed fault from a real one:
///
/// ```swift
/// if case .networkError(let failure) = error, failure.underlying is ChaosFaultError { /* rehearsed */ }
/// ```
public struct ChaosFaultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fault that was injected.
    public let fault: ChaosFault

    /// Creates the error.
    public init(fault: ChaosFault) {
        self.fault = fault
    }

    /// `injected by ChaosInterceptor: truncateBody`.
    public var description: String { "injected by ChaosInterceptor: \(fault)" }
}
