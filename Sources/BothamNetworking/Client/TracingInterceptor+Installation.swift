extension TracingInterceptor {
    /// Registers the interceptor on `client` in both roles: appends it to ``BothamAPIClient/interceptors`` and to
    /// the configuration's ``BothamAPIClient/Configuration/callObservers`` (which ends each call's span).
    public func install(on client: BothamAPIClient) {
        client.interceptors.append(self)
        var configuration = client.configuration
        configuration.callObservers.append(self)
        client.configuration = configuration
    }
}
