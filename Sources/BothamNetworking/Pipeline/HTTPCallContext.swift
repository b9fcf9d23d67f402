/// What an interceptor knows about the call it is part of, and where it keeps state for that call.
///
/// The same call keeps its ``callID``, `clock` and ``startedAt`` across retries; ``attempt`` counts from 1. Inside a
/// call the context is also available as ``current``, so Botham-style interceptors (which only get the request) can
/// read it.
///
/// Time in a call is the call's `clock` (the client's ``BothamAPIClient/Configuration/clock``): measure with
/// `context.clock.now`, compare HTTP dates with `context.clock.currentDate`, and wait with
/// `try await context.clock.sleep(for:)`, so a test's virtual clock governs the interceptor too.
///
/// Per-call state lives here, not in the interceptor: `context[SomeKey.self]` reads and sets a typed value
/// (``HTTPCallValueKey``) that every attempt of this call shares and no other call sees, and that goes away with the
/// call's last context: one kept after the call (by an observer, say) keeps its values and the requests it prepared.
public struct HTTPCallContext: Sendable {
    /// A number unique to this call in this process.
    public let callID: UInt64
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The most attempts this call may make (1 + the retry budget).
    public let maxAttempts: Int
    /// When the call started, on `clock`.
    public let startedAt: ContinuousClock.Instant
    /// The call's clock (see ``HTTPClock``): the one every time-based part of the call reads and waits on.
    public let clock: any HTTPClock
    /// The call's values, send counts and preparation records, shared by the contexts of all its attempts.
    let storage: HTTPCallStorage

    /// Creates a context (useful for testing interceptors directly). It has per-call values of its own, empty.
    ///
    /// - Parameters:
    ///   - callID: The call's number.
    ///   - attempt: The attempt number, from 1.
    ///   - maxAttempts: The most attempts the call may make.
    ///   - startedAt: When the call started; `nil` (the default) for `clock.now`.
    ///   - clock: The call's clock; the system's by default.
    package init(
        callID: UInt64, attempt: Int, maxAttempts: Int, startedAt: ContinuousClock.Instant? = nil,
        clock: any HTTPClock = .system
    ) {
        self.init(
            callID: callID, attempt: attempt, maxAttempts: maxAttempts, startedAt: startedAt ?? clock.now,
            clock: clock, storage: HTTPCallStorage())
    }

    private init(
        callID: UInt64, attempt: Int, maxAttempts: Int, startedAt: ContinuousClock.Instant, clock: any HTTPClock,
        storage: HTTPCallStorage
    ) {
        self.callID = callID
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.startedAt = startedAt
        self.clock = clock
        self.storage = storage
    }

    /// Whether this attempt is a retry.
    public var isRetry: Bool { attempt > 1 }

    /// The context of the call the current task is running, or `nil` outside a call.
    @TaskLocal public static var current: HTTPCallContext?

    /// The clock of the call running on this task, or the system clock outside a call (a transport used directly).
    package static var currentClock: any HTTPClock { current?.clock ?? SystemClock() }

    static let nextCallID = Lock<UInt64>(0)

    static func makeCallID() -> UInt64 {
        nextCallID.withLock { counter in
            counter &+= 1
            return counter
        }
    }

    /// The context of the next attempt of the same call: the same id, start, clock and values.
    package func nextAttempt() -> HTTPCallContext {
        HTTPCallContext(
            callID: callID, attempt: attempt + 1, maxAttempts: maxAttempts, startedAt: startedAt, clock: clock,
            storage: storage)
    }
}
