import Foundation

/// The wall clock a ``CacheInterceptor`` reads: when a response was requested and received, and what time it is
/// when a stored one is looked up (RFC 9111 §4.2.3 computes ages from these and from the `Date` field).
///
/// Inject one the test controls to make freshness tests instant:
///
/// ```swift
/// final class TestClock: CacheClock {
///     let current = Lock(Date(timeIntervalSince1970: 0))   // your own lock type
///     var now: Date { current.withLock { $0 } }
/// }
/// ```
public protocol CacheClock: Sendable {
    /// The current time.
    var now: Date { get }
}

/// The system's wall clock (`Date()`).
public struct SystemCacheClock: CacheClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }
}

extension CacheClock where Self == SystemCacheClock {
    /// The system's wall clock.
    public static var system: SystemCacheClock { SystemCacheClock() }
}
