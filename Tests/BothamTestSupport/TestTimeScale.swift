import BothamNetworkingConformance
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
        _ = schedulingLag
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

    /// An upper bound for something that started at `start`: `duration` multiplied by ``factor``, plus how late the
    /// machine ran tasks since then (``schedulingLag``). A loaded machine (about 1,200 tests start at once on two
    /// cores) delays every answer a test waits for; what the code under test adds by itself still counts.
    public static func scaled(_ duration: Duration, since start: ContinuousClock.Instant) -> Duration {
        scaled(duration) + schedulingLag.measured(since: start)
    }

    /// An upper bound for something that took `elapsed` and has just ended: `duration` multiplied by ``factor``, plus
    /// how late the machine ran tasks meanwhile.
    public static func scaled(_ duration: Duration, during elapsed: Duration) -> Duration {
        scaled(duration, since: ContinuousClock.now - elapsed)
    }

    /// `seconds` multiplied by ``factor``, plus the scheduling delay since `start`, in seconds.
    public static func scaled(seconds: Double, since start: ContinuousClock.Instant) -> Double {
        let lag = schedulingLag.measured(since: start).components
        return scaled(seconds: seconds) + Double(lag.seconds) + Double(lag.attoseconds) / 1e18
    }

    /// How late the machine ran tasks since `start`, unscaled: for a bound that is not scaled by ``factor`` but must
    /// not fail because the cooperative threads were busy with other tests.
    public static func schedulingDelay(since start: ContinuousClock.Instant) -> Duration {
        schedulingLag.measured(since: start)
    }

    /// The process's one probe of scheduling delay, started by the first test that reads ``factor`` or asks for a
    /// bound (every timing suite does so early).
    package static let schedulingLag = SchedulingLag()
}
