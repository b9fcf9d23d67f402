import Dispatch

extension BothamAPIClient.Configuration {
    /// Told once about every call when it ends, in order, after the interceptors' own
    /// ``HTTPInterceptor/callDidFinish(_:result:context:)``. Default: none.
    @available(
        *, deprecated,
        message: "implement HTTPInterceptor.callDidFinish(_:result:context:) and append the interceptor to interceptors"
    )
    public var callObservers: [any HTTPCallObserver] {
        get { legacyCallObservers.compactMap { $0.observer as? any HTTPCallObserver } }
        set { legacyCallObservers = newValue.map(LegacyCallObserver.init) }
    }

    /// Creates a configuration whose calls also tell `callObservers` when they end.
    @available(
        *, deprecated,
        message: "implement HTTPInterceptor.callDidFinish(_:result:context:) and append the interceptor to interceptors"
    )
    public init(
        maxRetries: Int = 3,
        validation: ResponseValidation = .successfulStatusCodes,
        completionQueue: DispatchQueue? = nil,
        retrier: (any RequestRetrier)? = nil,
        clock: any HTTPClock = .system,
        callObservers: [any HTTPCallObserver],
        callTimeout: Duration? = nil
    ) {
        self.init(
            maxRetries: maxRetries,
            validation: validation,
            completionQueue: completionQueue,
            retrier: retrier,
            clock: clock,
            callTimeout: callTimeout
        )
        self.callObservers = callObservers
    }
}

extension LegacyCallObserver {
    /// Keeps `observer` and how to tell it.
    @available(*, deprecated, message: "the storage of the deprecated Configuration.callObservers")
    init(_ observer: any HTTPCallObserver) {
        self.init(observer: observer, callDidFinish: observer.callDidFinish)
    }
}
