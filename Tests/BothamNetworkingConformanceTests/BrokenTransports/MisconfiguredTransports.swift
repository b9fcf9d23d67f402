import BothamNetworking
import BothamNetworkingConformance
import BothamNetworkingNative
import Foundation

/// `NativeHTTPClient` with one setting of its configuration changed from what the check asked for (and, optionally,
/// each request changed before it is sent): the transports that ignore a setting.
struct MisconfiguredNative: NativeWrapper {
    let inner: any HTTPClient
    let adjust: @Sendable (HTTPRequest) -> HTTPRequest

    init(
        _ configuration: ConformanceClientConfiguration,
        changing change: (inout NativeHTTPClient.Configuration) -> Void,
        adjusting adjust: @escaping @Sendable (HTTPRequest) -> HTTPRequest = { $0 }
    ) {
        var native = NativeHTTPClient.Configuration()
        native.redirectPolicy = configuration.redirectPolicy
        native.limits = configuration.limits
        change(&native)
        inner = NativeHTTPClient(configuration: native)
        self.adjust = adjust
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await inner.send(adjust(request))
    }

    /// Has no time limit at all: the transport's limits and the request's own timeout are dropped.
    static func ignoringTimeouts(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        changingTimeouts(configuration) { _ in nil }
    }

    /// Fires every timeout at a twentieth of its limit, the transport's limits and the request's own timeout
    /// alike: the mistake of a transport that converts a timeout with the wrong factor.
    static func timingOutEarly(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        changingTimeouts(configuration) { $0.map { $0 / 20 } }
    }

    /// Native with `change` applied to its idle, attempt and maximum attempt timeouts and to each request's own.
    private static func changingTimeouts(
        _ configuration: ConformanceClientConfiguration, _ change: @escaping @Sendable (Duration?) -> Duration?
    ) -> MisconfiguredNative {
        MisconfiguredNative(
            configuration,
            changing: { native in
                native.limits.idleTimeout = change(native.limits.idleTimeout)
                native.limits.attemptTimeout = change(native.limits.attemptTimeout)
                native.limits.maxAttemptTimeout = change(native.limits.maxAttemptTimeout)
            },
            adjusting: { $0.withTimeout(change($0.timeout)) })
    }

    /// Takes the idle timeout for a limit on the whole attempt: a body that keeps arriving is cut off anyway.
    static func boundingAttemptsByIdleTimeout(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        MisconfiguredNative(
            configuration,
            changing: { native in
                guard let idle = native.limits.idleTimeout else { return }
                native.limits.attemptTimeout = min(native.limits.attemptTimeout ?? idle, idle)
            })
    }

    /// Follows redirects as native does by default, whatever policy it is given.
    static func ignoringRedirectPolicy(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        MisconfiguredNative(configuration, changing: { $0.redirectPolicy = .follow })
    }

    /// Holds and writes bodies of any size: both body limits are dropped.
    static func ignoringSizeLimits(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        MisconfiguredNative(
            configuration,
            changing: {
                $0.limits.maxResponseBytes = nil
                $0.limits.maxFileResponseBytes = nil
            })
    }

    /// Hands a gzip or deflate body over as it came, still encoded.
    static func notDecoding(_ configuration: ConformanceClientConfiguration) -> MisconfiguredNative {
        MisconfiguredNative(configuration, changing: { $0.decompression = false })
    }
}

/// Sends the path without its query: the request a transport builds from the URL's path alone.
struct DropsQuery: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        var components = URLComponents(url: try request.resolvedURL(), resolvingAgainstBaseURL: false)
        components?.query = nil
        guard let url = components?.url else { return try await inner.send(request) }
        return try await inner.send(request.rebuilt(url: url, headers: request.headers, body: request.body))
    }
}

/// Uploads a file body as nothing, with the field that announced its size dropped: a transport that only knows
/// bodies in memory.
struct SendsFilesEmpty: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard request.body?.fileURL != nil else { return try await inner.send(request) }
        var headers = request.headers
        headers.remove(.contentLength)
        return try await inner.send(request.rebuilt(url: try request.resolvedURL(), headers: headers, body: nil))
    }
}

extension HTTPRequest {
    /// A new request to `url` with `method` (this one's by default), `headers` and `body`, keeping this one's timeout
    /// and response destination: the request a broken transport builds instead of the one it was given.
    func rebuilt(method: HTTPMethod? = nil, url: URL, headers: HTTPHeaders, body: HTTPBody?) -> HTTPRequest {
        HTTPRequest(method: method ?? self.method, url: url, headers: headers, body: body)
            .withTimeout(timeout).withResponseDestination(responseDestination)
    }
}
