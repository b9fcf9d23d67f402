import BothamNetworking
import BothamNetworkingTesting
import Foundation

@testable import BothamNetworkingNative

/// The proxies `scripts/proxies.sh start` runs on loopback, read from the variables it exports; each is `nil` when
/// its variable is unset (the suites using it are skipped, naming the variable).
enum ProxyTestEnvironment {
    static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// tinyproxy without authentication, and its log.
    static let httpProxy = value("BOTHAM_TEST_HTTP_PROXY")
    static let httpProxyLog = value("BOTHAM_TEST_HTTP_PROXY_LOG")
    /// tinyproxy with BasicAuth (the URL carries the right credentials).
    static let httpProxyWithAuthentication = value("BOTHAM_TEST_HTTP_PROXY_AUTH")
    /// danted without authentication (`socks5h://`).
    static let socksProxy = value("BOTHAM_TEST_SOCKS_PROXY")
    /// scripts/socks5-server.py, with RFC 1929 username/password (the URL carries the right ones), and its log.
    static let socksProxyWithAuthentication = value("BOTHAM_TEST_SOCKS_PROXY_AUTH")
    static let socksProxyWithAuthenticationLog = value("BOTHAM_TEST_SOCKS_PROXY_AUTH_LOG")

    /// Whether these tests run on Linux, where FoundationNetworking hands URLSession's requests to libcurl.
    static let isLinux: Bool = {
        #if os(Linux)
            return true
        #else
            return false
        #endif
    }()

    static let skipReason = "proxies not running: scripts/proxies.sh start, then eval \"$(scripts/proxies.sh env)\""

    /// The proxy of `url` (from the environment), with its kind or credentials replaced when asked.
    static func proxy(
        _ url: String?, kind: ProxyServer.Kind? = nil, credentials: ProxyCredentials?? = .none
    ) throws -> ProxyServer {
        var proxy = try ProxyServer(url: url ?? "")
        if let kind { proxy.kind = kind }
        if case .some(let replacement) = credentials { proxy.credentials = replacement }
        return proxy
    }

    /// The lines of a log file.
    static func logLines(_ path: String?) -> [String] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
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
