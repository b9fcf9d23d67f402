/// What an interceptor knows about the call it is part of, and where it keeps state for that call.
///
/// The same call keeps its ``callID`` and ``startedAt`` across retries; ``attempt`` counts from 1. Inside a call the
/// context is also available as ``current``, so Botham-style interceptors (which only get the request) can read it.
///
/// Per-call state lives here, not in the interceptor: `context[SomeKey.self]` reads and sets a typed value
/// (``HTTPCallValueKey``) that every attempt of this call shares and no other call sees, and that goes away with the
/// call.
public struct HTTPCallContext: Sendable, Hashable {
    /// A number unique to this call in this process.
    public let callID: UInt64
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The most attempts this call may make (1 + the retry budget).
    public let maxAttempts: Int
    /// When the call started.
    public let startedAt: ContinuousClock.Instant
    /// The call's values and send counts, shared by the contexts of all its attempts.
    let storage: HTTPCallStorage

    /// Creates a context (useful for testing interceptors directly). It has per-call values of its own, empty.
    public init(callID: UInt64, attempt: Int, maxAttempts: Int, startedAt: ContinuousClock.Instant = .now) {
        self.init(
            callID: callID, attempt: attempt, maxAttempts: maxAttempts, startedAt: startedAt,
            storage: HTTPCallStorage(HTTPCallState()))
    }

    private init(
        callID: UInt64, attempt: Int, maxAttempts: Int, startedAt: ContinuousClock.Instant, storage: HTTPCallStorage
    ) {
        self.callID = callID
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.startedAt = startedAt
        self.storage = storage
    }

    /// Whether this attempt is a retry.
    public var isRetry: Bool { attempt > 1 }

    /// The context of the call the current task is running, or `nil` outside a call.
    @TaskLocal public static var current: HTTPCallContext?

    static let nextCallID = Lock<UInt64>(0)

    static func makeCallID() -> UInt64 {
        nextCallID.withLock { counter in
            counter &+= 1
            return counter
        }
    }

    /// The context of the next attempt of the same call: the same id, start and values.
    package func nextAttempt() -> HTTPCallContext {
        HTTPCallContext(
            callID: callID, attempt: attempt + 1, maxAttempts: maxAttempts, startedAt: startedAt, storage: storage)
    }

    /// Contexts are equal when their call, attempt, budget and start are (the values they carry do not count).
    public static func == (lhs: HTTPCallContext, rhs: HTTPCallContext) -> Bool {
        lhs.callID == rhs.callID && lhs.attempt == rhs.attempt && lhs.maxAttempts == rhs.maxAttempts
            && lhs.startedAt == rhs.startedAt
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(callID)
        hasher.combine(attempt)
        hasher.combine(maxAttempts)
        hasher.combine(startedAt)
    }
}
