/// The median, minimum and maximum of repeated measurements.
public struct Summary: Codable, Sendable {
    /// The median (the mean of the middle two for an even count).
    public let median: Double
    /// The smallest sample.
    public let min: Double
    /// The largest sample.
    public let max: Double
    /// The samples, in the order measured.
    public let samples: [Double]

    /// The summary of `samples` (every value NaN when there are none).
    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        self.samples = samples
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}
