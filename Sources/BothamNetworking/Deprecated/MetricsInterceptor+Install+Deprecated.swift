extension MetricsInterceptor {
    /// Appends the interceptor to `client`'s ``BothamAPIClient/interceptors``, which is all it takes now: the client
    /// tells every interceptor when a call ends (``HTTPInterceptor/callDidFinish(_:result:context:)``).
    @available(*, deprecated, message: "append it to the client's interceptors: apiClient.interceptors.append(...)")
    public func install(on client: BothamAPIClient) {
        client.interceptors.append(self)
    }
}

extension TracingInterceptor {
    /// Appends the interceptor to `client`'s ``BothamAPIClient/interceptors``, which is all it takes now: the client
    /// tells every interceptor when a call ends (``HTTPInterceptor/callDidFinish(_:result:context:)``).
    @available(*, deprecated, message: "append it to the client's interceptors: apiClient.interceptors.append(...)")
    public func install(on client: BothamAPIClient) {
        client.interceptors.append(self)
    }
}
