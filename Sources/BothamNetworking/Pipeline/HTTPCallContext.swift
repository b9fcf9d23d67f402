/// What an interceptor knows about the call it is part of.
///
/// The same call keeps its ``callID`` and ``startedAt`` across retries; ``attempt`` counts from 1. Inside a call the
/// context is also available as ``current``, so Botham-style interceptors (which only get the request) can read it.
public struct HTTPCallContext: Sendable, Hashable {
    /// A number unique to this call in this process.
    public let callID: UInt64
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The most attempts this call may make (1 + the retry budget).
    public let maxAttempts: Int
    /// When the call started.
    public let startedAt: ContinuousClock.Instant

    /// Creates a context (useful for testing interceptors directly).
    public init(callID: UInt64, attempt: Int, maxAttempts: Int, startedAt: ContinuousClock.Instant = .now) {
        self.callID = callID
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.startedAt = startedAt
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

    func nextAttempt() -> HTTPCallContext {
        HTTPCallContext(callID: callID, attempt: attempt + 1, maxAttempts: maxAttempts, startedAt: startedAt)
    }
}
