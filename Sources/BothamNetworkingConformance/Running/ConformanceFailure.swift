/// Why a check failed: the readable reason that ends up in its ``ConformanceOutcome/failed(reason:)``.
struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What the transport did, and what the check expected instead.
    let reason: String

    var description: String { reason }
}

/// Fails the running check with `reason` unless `condition` holds.
func expect(_ condition: Bool, _ reason: @autoclosure () -> String) throws(ConformanceFailure) {
    guard condition else { throw ConformanceFailure(reason: reason()) }
}

/// The value, or a failure of the running check with `reason` when it is `nil`.
func require<T>(_ value: T?, _ reason: @autoclosure () -> String) throws(ConformanceFailure) -> T {
    guard let value else { throw ConformanceFailure(reason: reason()) }
    return value
}
