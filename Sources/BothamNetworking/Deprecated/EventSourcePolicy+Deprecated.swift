// The release before the one clock of a call gave EventSourcePolicy a sleeper of its own (#34: a removed member
// keeps a deprecated shim for at least one minor version).

extension EventSource.Policy {
    /// How the source waits between connections.
    @available(*, deprecated, message: "an EventSource waits on BothamAPIClient.Configuration.clock")
    public var sleeper: RetrySleeper {
        get { sleep.map(RetrySleeper.init) ?? .continuous }
        set { sleep = newValue.sleep }
    }

    /// Creates a policy that waits through `sleeper` instead of the call's clock.
    @available(*, deprecated, message: "an EventSource waits on BothamAPIClient.Configuration.clock")
    public init(
        defaultReconnectionTime: Duration = .seconds(3),
        maxReconnectionDelay: Duration = .seconds(60),
        maxConsecutiveFailures: Int = 8,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        jitter: RetryPolicy.Jitter = .proportional(0.2),
        random: RetryPolicy.Random = .system,
        sleeper: RetrySleeper,
        lastEventID: String = ""
    ) {
        self.init(
            defaultReconnectionTime: defaultReconnectionTime,
            maxReconnectionDelay: maxReconnectionDelay,
            maxConsecutiveFailures: maxConsecutiveFailures,
            retryableStatusCodes: retryableStatusCodes,
            jitter: jitter,
            random: random,
            lastEventID: lastEventID
        )
        self.sleep = sleeper.sleep
    }
}

/// The earlier name of ``EventSource/Policy``.
@available(*, deprecated, renamed: "EventSource.Policy")
public typealias EventSourcePolicy = EventSource.Policy
