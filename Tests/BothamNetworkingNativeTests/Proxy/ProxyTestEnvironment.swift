import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation

@testable import BothamNetworkingNative

extension ProxyTestEnvironment {
    /// The proxy of `url` (from the environment), with its kind or credentials replaced when asked.
    static func proxy(
        _ url: String?, kind: ProxyServer.Kind? = nil, credentials: BasicAuthCredentials?? = .none
    ) throws -> ProxyServer {
        var proxy = try ProxyServer(url: url ?? "")
        if let kind { proxy.kind = kind }
        if case .some(let replacement) = credentials { proxy.credentials = replacement }
        return proxy
    }
}

/// A client whose requests go through `proxies`.
func proxiedClient(
    _ proxies: ProxyConfiguration, _ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }
) -> NativeHTTPClient {
    makeClient {
        $0.proxy = proxies
        change(&$0)
    }
}

/// An origin that echoes nothing but records each request and answers 200 with `ok`.
func recordingServer() throws -> MockWebServer {
    try makeServer { _ in MockResponse(statusCode: 200, body: Data("ok".utf8)) }
}

/// The `NativeProxyError` of a `proxyAuthenticationRequired` failure, if `error` is one.
func proxyAuthenticationError(_ error: APIClientError?) -> NativeProxyError? {
    guard case .networkError(let failure) = error, failure.kind == .proxyAuthenticationRequired else { return nil }
    return failure.underlying as? NativeProxyError
}

/// Whether any header field of `request` carries a proxy credential (the field, or the password in any form).
func carriesProxyCredentials(_ request: RecordedRequest, password: String = "s3cret") -> Bool {
    let encoded = Data("botham:\(password)".utf8).base64EncodedString()
    return request.header(.proxyAuthorization) != nil
        || request.headers.fields.contains { $0.value.contains(password) || $0.value.contains(encoded) }
}
