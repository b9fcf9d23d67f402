extension HTTPInterceptor where Self: HTTPCallObserver {
    /// Registers an interceptor that must also hear the end of each call (``MetricsInterceptor``,
    /// ``TracingInterceptor``) in both roles: appends it to ``BothamAPIClient/interceptors`` and to the
    /// configuration's ``BothamAPIClient/Configuration/callObservers``.
    public func install(on client: BothamAPIClient) {
        client.interceptors.append(self)
        var configuration = client.configuration
        configuration.callObservers.append(self)
        client.configuration = configuration
    }
}
