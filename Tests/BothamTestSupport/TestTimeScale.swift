import Foundation

/// Scales the upper bounds of timing assertions in this package's own tests (shared by the test targets; not part
/// of any product).
///
/// A timing bound proves that something ends promptly; under ThreadSanitizer (5–15x slower) the same code is
/// promptly slower. CI runs the sanitized suite with `BOTHAM_TEST_TIME_SCALE=10`, so the bounds stay meaningful in
/// the plain run (scale 1) while the sanitized run checks for data races, not for speed.
public enum TestTimeScale {
    /// The factor from `BOTHAM_TEST_TIME_SCALE` (default 1; values below 1 or unparsable count as 1).
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["BOTHAM_TEST_TIME_SCALE"], let value = Double(text),
            value >= 1
        else { return 1 }
        return value
    }()

    /// `duration` multiplied by ``factor``.
    public static func scaled(_ duration: Duration) -> Duration {
        duration * factor
    }

    /// `seconds` multiplied by ``factor``.
    public static func scaled(seconds: Double) -> Double {
        seconds * factor
    }
}
