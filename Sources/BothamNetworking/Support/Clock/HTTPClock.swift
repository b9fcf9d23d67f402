import Foundation

/// The one clock of everything time-based in a call: the waits between retries (``RetryPolicy`` delays and
/// `Retry-After`), ``BothamAPIClient/Configuration/callTimeout`` and stream deadlines, the token refresh limit
/// (``TokenAuthenticator/RefreshLimit``), cache freshness (``CacheInterceptor``), cookie expiry (``CookieJar``),
/// ``EventSource`` reconnection delays, stub latency and the durations logging and metrics report.
///
/// A client's ``BothamAPIClient/Configuration/clock`` (`SystemClock` by default) is snapshotted when a call
/// starts and reaches every part of the call as `HTTPCallContext.clock`. Anything in a call that waits does so
/// on that clock, so a test that gives the client `BothamNetworkingTesting`'s `VirtualClock` decides when time
/// passes, and nothing sleeps for real:
///
/// ```swift
/// struct Delay: HTTPInterceptor {
///     func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext)
///         async throws -> HTTPResponse
///     {
///         try await context.clock.sleep(for: .milliseconds(200))  // the call's clock: virtual in tests
///         return try await next(request)
///     }
/// }
/// ```
///
/// It is a Swift `Clock` on `ContinuousClock`'s instants (monotonic: `now`, `sleep(until:tolerance:)`,
/// `sleep(for:)`), plus the wall-clock ``currentDate`` that HTTP dates (`Date`, `Expires`, `Retry-After`, cookie
/// `Expires`) are compared with. Sleeps throw `CancellationError` when the task is cancelled.
///
/// It governs the library's own waits, not the kernel's: the socket timeouts of the transports
/// (``TransportLimits``, a request's ``HTTPRequest/timeout`` on `URLSessionHTTPClient` and `NativeHTTPClient`),
/// the native DNS cache and connection pool, and `MockWebServer` run on real time.
public protocol HTTPClock: Clock, Sendable where Instant == ContinuousClock.Instant {
    /// The wall-clock time, for comparing with the dates HTTP messages carry.
    var currentDate: Date { get }
}

/// The real clock: `ContinuousClock` for instants and sleeps, `Date()` for the wall clock. The default of
/// ``BothamAPIClient/Configuration/clock``.
@usableFromInline
package struct SystemClock: HTTPClock {
    /// The system clock.
    @usableFromInline
    package init() {}

    /// `ContinuousClock.now`.
    @usableFromInline
    package var now: ContinuousClock.Instant { .now }

    /// `ContinuousClock`'s resolution.
    @usableFromInline
    package var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// `Date()`.
    @usableFromInline
    package var currentDate: Date { Date() }

    /// Sleeps on `ContinuousClock` until `deadline`; throws `CancellationError` when the task is cancelled. A
    /// deadline that has passed (a zero delay) returns at once, without a timer a busy thread pool could delay.
    @usableFromInline
    package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        guard deadline > .now else { return try Task.checkCancellation() }
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}

extension HTTPClock where Self == SystemClock {
    /// The real clock (`SystemClock`).
    @usableFromInline
    package static var system: SystemClock { SystemClock() }
}
