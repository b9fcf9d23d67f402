import PlaygroundSupport

/// Every page, in the order `swift run Playgrounds` runs them.
public let allPlaygroundPages: [any PlaygroundPage.Type] = [
    Home.self, Headers.self, Parameters.self, Body.self, Interceptors.self, BasicAuthenticationPage.self, Retry.self,
    TokenRefresh.self, TypedEndpoints.self, UploadsAndDownloads.self, Streaming.self, Caching.self,
    TestingWithStubs.self, TestingToolkit.self, Rehearsals.self, WebSockets.self,
]
