/// What the pipeline needs to run one call: the retry budget, the retrier, the call's clock, the validation
/// and the observers told when the call ends. The client builds it from one snapshot of its configuration when the
/// call starts, so the pipeline never reads (or names) the client's configuration.
struct CallSettings: Sendable {
    /// How many times the call may be sent again; negative values count as 0.
    var maxRetries: Int
    /// Which responses are successes.
    var validation: ResponseValidation
    /// Which failed attempts are sent again, and when; `nil` retries only on ``ResponseInterceptorResult/retry``.
    var retrier: (any RequestRetrier)?
    /// The call's clock: the waits between attempts and the call timeout run on it, and it is the context's.
    var clock: any HTTPClock
    /// The deprecated observers, told once when the call ends, in order, after the interceptors.
    var callObservers: [LegacyCallObserver]
    /// The most the whole call may take, every attempt and every wait between them; `nil` for no limit.
    var callTimeout: Duration?
}
