import Foundation

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds with one decimal, for people: `12.3 ms`, or `12.3ms` with an empty `unitSeparator`
    /// (a value too large to represent reads `0.0`).
    func millisecondsText(unitSeparator: String = " ") -> String {
        let ms = seconds * 1_000
        return String(format: "%.1f", ms.isFinite ? ms : 0) + unitSeparator + "ms"
    }
}
