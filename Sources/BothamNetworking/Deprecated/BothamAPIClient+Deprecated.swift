// Spellings of the release before RetryStrategy became RequestRetrier, the retry sleeper became the call's clock and
// stream(_:deadline:) became stream(_:callTimeout:) (#34: every rename keeps a deprecated shim for at least one
// minor version).
import Dispatch

/// Decides whether a finished attempt should be sent again, and when.
@available(*, deprecated, renamed: "RequestRetrier")
public typealias RetryStrategy = RequestRetrier

extension BothamAPIClient.Configuration {
    /// Decides which failed attempts are retried and after what delay.
    @available(*, deprecated, renamed: "retrier")
    public var retryStrategy: (any RequestRetrier)? {
        get { retrier }
        set { retrier = newValue }
    }

    /// Waits between attempts.
    ///
    /// Setting a sleeper makes every wait on the call's `clock` go through it (retry delays, `EventSource`
    /// reconnection waits, call timeouts); the clock still tells the time.
    @available(*, deprecated, message: "set `clock` instead: a VirtualClock from BothamNetworkingTesting in tests")
    public var retrySleeper: RetrySleeper {
        get { (clock as? SleeperClock).map { RetrySleeper($0.sleep) } ?? .continuous }
        set { clock = SleeperClock(base: (clock as? SleeperClock)?.base ?? clock, sleep: newValue.sleep) }
    }

    /// Creates a configuration.
    @available(
        *, deprecated,
        message: "use init(maxRetries:validation:completionQueue:retrier:clock:callTimeout:)"
    )
    @_disfavoredOverload
    public init(
        maxRetries: Int = 3,
        validation: ResponseValidation = .successfulStatusCodes,
        completionQueue: DispatchQueue? = nil,
        retryStrategy: (any RequestRetrier)? = nil,
        retrySleeper: RetrySleeper? = nil,
        callObservers: [any HTTPCallObserver] = []
    ) {
        self.init(
            maxRetries: maxRetries,
            validation: validation,
            completionQueue: completionQueue,
            retrier: retryStrategy,
            clock: retrySleeper.map { SleeperClock(base: SystemClock(), sleep: $0.sleep) } ?? SystemClock(),
            callObservers: callObservers
        )
    }
}

extension BothamAPIClient {
    /// Sends `request` and streams the response body; `deadline` bounds the whole call.
    @available(*, deprecated, renamed: "stream(_:callTimeout:)")
    public func stream(_ request: HTTPRequest, deadline: Duration?) async throws(APIClientError)
        -> HTTPStreamedResponse
    {
        try await stream(request, callTimeout: deadline)
    }

    /// Sends `method path` and streams the response body; `deadline` bounds the whole call.
    @available(*, deprecated, renamed: "stream(_:_:parameters:headers:body:callTimeout:)")
    public func stream(
        _ method: HTTPMethod = .get,
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        deadline: Duration?
    ) async throws(APIClientError) -> HTTPStreamedResponse {
        try await stream(method, path, parameters: parameters, headers: headers, body: body, callTimeout: deadline)
    }
}
