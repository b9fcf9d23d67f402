/// Elapsed wall time in seconds.
struct Stopwatch {
    private let start = ContinuousClock.now

    var seconds: Double {
        let (whole, attoseconds) = (ContinuousClock.now - start).components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
