import BothamNetworking
import BothamNetworkingConformance
import BothamNetworkingNative
import Foundation

/// Follows redirects as native does by default, whatever policy it is given.
struct IgnoresRedirectPolicy: NativeWrapper {
    let inner: any HTTPClient

    init(_ configuration: ConformanceClientConfiguration) {
        var own = configuration
        own.redirectPolicy = .follow
        inner = OwnTransport.native.make(own)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await inner.send(request)
    }
}

/// Holds and writes bodies of any size: both body limits are dropped.
struct IgnoresSizeLimits: NativeWrapper {
    let inner: any HTTPClient

    init(_ configuration: ConformanceClientConfiguration) {
        var own = configuration
        own.limits.maxResponseBytes = nil
        own.limits.maxFileResponseBytes = nil
        inner = OwnTransport.native.make(own)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await inner.send(request)
    }
}

/// Hands a gzip or deflate body over as it came, still encoded.
struct DoesNotDecode: NativeWrapper {
    let inner: any HTTPClient

    init(_ configuration: ConformanceClientConfiguration) {
        var native = NativeHTTPClient.Configuration()
        native.redirectPolicy = configuration.redirectPolicy
        native.limits = configuration.limits
        native.decompression = false
        inner = NativeHTTPClient(configuration: native)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await inner.send(request)
    }
}

/// Sends the path without its query: the request a transport builds from the URL's path alone.
struct DropsQuery: NativeWrapper {
    let inner: any HTTPClient

    init(_ configuration: ConformanceClientConfiguration) {
        inner = OwnTransport.native.make(configuration)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        var components = URLComponents(url: try request.resolvedURL(), resolvingAgainstBaseURL: false)
        components?.query = nil
        guard let url = components?.url else { return try await inner.send(request) }
        let withoutQuery = HTTPRequest(method: request.method, url: url, headers: request.headers, body: request.body)
            .withTimeout(request.timeout).withResponseDestination(request.responseDestination)
        return try await inner.send(withoutQuery)
    }
}

/// Uploads a file body as nothing, with the field that announced its size dropped: a transport that only knows
/// bodies in memory.
struct SendsFilesEmpty: NativeWrapper {
    let inner: any HTTPClient

    init(_ configuration: ConformanceClientConfiguration) {
        inner = OwnTransport.native.make(configuration)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard request.body?.fileURL != nil else { return try await inner.send(request) }
        var headers = request.headers
        headers.remove(.contentLength)
        let empty = HTTPRequest(method: request.method, url: try request.resolvedURL(), headers: headers, body: nil)
            .withTimeout(request.timeout).withResponseDestination(request.responseDestination)
        return try await inner.send(empty)
    }
}
