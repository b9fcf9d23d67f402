import Foundation

/// The proxies `scripts/proxies.sh start` runs on loopback, read from the variables it exports; each is `nil` when
/// its variable is unset (the suites using it are skipped, naming the variable). Shared by the native proxy suites
/// and the URLSession proxy probe; not part of any product.
public enum ProxyTestEnvironment {
    /// The non-empty value of the environment variable `name`.
    public static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// tinyproxy without authentication.
    public static let httpProxy = value("BOTHAM_TEST_HTTP_PROXY")
    /// The log of ``httpProxy``.
    public static let httpProxyLog = value("BOTHAM_TEST_HTTP_PROXY_LOG")
    /// tinyproxy with BasicAuth (the URL carries the right credentials).
    public static let httpProxyWithAuthentication = value("BOTHAM_TEST_HTTP_PROXY_AUTH")
    /// danted without authentication (`socks5h://`).
    public static let socksProxy = value("BOTHAM_TEST_SOCKS_PROXY")
    /// scripts/socks5-server.py, with RFC 1929 username/password (the URL carries the right ones), and its log.
    public static let socksProxyWithAuthentication = value("BOTHAM_TEST_SOCKS_PROXY_AUTH")
    /// The log of ``socksProxyWithAuthentication``.
    public static let socksProxyWithAuthenticationLog = value("BOTHAM_TEST_SOCKS_PROXY_AUTH_LOG")

    /// Whether these tests run on Linux, where FoundationNetworking hands URLSession's requests to libcurl.
    public static let isLinux: Bool = {
        #if os(Linux)
            return true
        #else
            return false
        #endif
    }()

    /// What a proxy suite says when it skips.
    public static let skipReason =
        "proxies not running: scripts/proxies.sh start, then eval \"$(scripts/proxies.sh env)\""

    /// The lines of a log file.
    public static func logLines(_ path: String?) -> [String] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }
}
