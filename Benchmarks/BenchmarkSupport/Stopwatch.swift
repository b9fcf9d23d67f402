/// Elapsed wall time since it was made, shared by every benchmark executable.
public struct Stopwatch: Sendable {
    private let start = ContinuousClock.now

    /// Starts now.
    public init() {}

    /// The seconds elapsed since it was made.
    public var seconds: Double {
        let (whole, attoseconds) = (ContinuousClock.now - start).components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
