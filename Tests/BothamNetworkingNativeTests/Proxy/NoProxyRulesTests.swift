import BothamNetworking
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("Proxy environment and no_proxy rules, as curl reads them (pure, no network)", .timeLimit(.minutes(1)))
struct NoProxyRulesTests {
    @Test(
        "no_proxy matches names, domain suffixes with or without a dot, *, IPs and CIDR ranges, and nothing else",
        arguments: [
            ("example.com", "example.com", true),
            ("example.com", "api.example.com", true),
            ("example.com", "EXAMPLE.COM.", true),
            ("example.com", "notexample.com", false),
            ("example.com", "example.com.org", false),
            (".example.com", "example.com", true),
            (".example.com", "a.b.example.com", true),
            (".example.com", "badexample.com", false),
            ("example.com.", "api.example.com", true),
            ("*", "anything.test", true),
            ("*", "10.1.2.3", true),
            ("*.example.com", "api.example.com", false),
            ("localhost, 127.0.0.1 ,::1", "127.0.0.1", true),
            ("localhost,127.0.0.1,::1", "::1", true),
            ("localhost,127.0.0.1,::1", "[::1]", true),
            ("localhost,127.0.0.1,::1", "localhost", true),
            ("localhost,127.0.0.1,::1", "127.0.0.2", false),
            ("127.0.0.0/8", "127.9.8.7", true),
            ("127.0.0.0/8", "128.0.0.1", false),
            ("192.168.0.0/16", "192.168.255.1", true),
            ("192.168.0.0/16", "192.169.0.1", false),
            ("10.0.0.0/33", "10.0.0.1", false),
            ("fd00::/8", "fd12::1", true),
            ("fd00::/8", "fe80::1", false),
            ("::1/128", "::1", true),
            ("127.0.0.1", "localhost", false),
            ("example.com:8080", "example.com", false),
            ("", "example.com", false),
            (" , ,", "example.com", false),
        ] as [(String, String, Bool)]
    )
    func noProxyTable(list: String, host: String, expected: Bool) {
        #expect(NoProxyList(list).matches(host: host) == expected, "no_proxy=\"\(list)\" host \(host)")
    }

    @Test(
        "The environment chooses the proxy per scheme: lower case wins, HTTP_PROXY is ignored, all_proxy is the fallback",
        arguments: [
            // (environment, URL, the proxy used or nil)
            (["http_proxy": "http://p:3128"], "http://a.test/", "http://p:3128"),
            (["HTTP_PROXY": "http://p:3128"], "http://a.test/", nil),
            (["http_proxy": "http://p:3128"], "https://a.test/", nil),
            (["https_proxy": "http://s:3128"], "https://a.test/", "http://s:3128"),
            (["HTTPS_PROXY": "http://S:3128"], "https://a.test/", "http://s:3128"),
            (["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"], "https://a.test/", "http://lower:1"),
            (["all_proxy": "socks5h://all:1080"], "http://a.test/", "socks5h://all:1080"),
            (["ALL_PROXY": "socks5://all:1080"], "https://a.test/", "socks5://all:1080"),
            (["all_proxy": "http://lower:1", "ALL_PROXY": "http://upper:2"], "https://a.test/", "http://lower:1"),
            (["HTTP_PROXY": "http://p:1", "ALL_PROXY": "http://all:2"], "http://a.test/", "http://all:2"),
            (["http_proxy": "http://p:1", "all_proxy": "http://all:2"], "http://a.test/", "http://p:1"),
            (["http_proxy": "", "all_proxy": "http://all:2"], "http://a.test/", "http://all:2"),
            (["https_proxy": "http://s:1", "no_proxy": "a.test"], "https://api.a.test/", nil),
            (["https_proxy": "http://s:1", "NO_PROXY": "a.test"], "https://a.test/", nil),
            (
                ["https_proxy": "http://s:1", "no_proxy": "b.test", "NO_PROXY": "a.test"], "https://a.test/",
                "http://s:1"
            ),
            (["https_proxy": "http://s:1", "no_proxy": "*"], "https://a.test/", nil),
            (["https_proxy": "s:3128"], "https://a.test/", "http://s:3128"),
            (["https_proxy": "http://s"], "https://a.test/", "http://s:1080"),
            (["https_proxy": "http://u:pw@s:1"], "https://a.test/", "http://u:<redacted>@s:1"),
            ([:], "https://a.test/", nil),
        ] as [([String: String], String, String?)]
    )
    func environmentTable(environment: [String: String], url: String, expected: String?) throws {
        let configuration = try ProxyConfiguration.fromEnvironment(environment)
        let parsed = try #require(URL(string: url))
        let origin = try #require(Origin(parsed))
        #expect(configuration.proxy(for: origin)?.description == expected, "\(environment) \(url)")
    }

    @Test("The environment is read once: the configuration is a value, and later changes do not reach it")
    func environmentSnapshot() throws {
        var environment = ["https_proxy": "http://first:1"]
        let configuration = try ProxyConfiguration.fromEnvironment(environment)
        environment["https_proxy"] = "http://second:2"
        #expect(configuration.httpsProxy?.host == "first")
        #expect(try ProxyConfiguration.fromEnvironment(environment).httpsProxy?.host == "second")
    }

    @Test("A proxy URL gives the kind, host, port and percent-decoded credentials, and never shows the password")
    func proxyURLs() throws {
        let proxy = try ProxyServer(url: "socks5h://us%40er:p%3Ass@[::1]:9050/")
        #expect(proxy.kind == .socks5h)
        #expect(proxy.host == "::1")
        #expect(proxy.port == 9050)
        #expect(proxy.credentials == BasicAuthCredentials(username: "us@er", password: "p:ss"))
        #expect(proxy.description == "socks5h://us@er:<redacted>@[::1]:9050")
        #expect(!String(describing: proxy.credentials).contains("p:ss"))
        #expect(try ProxyServer(url: "HTTP://Proxy.Corp:3128").description == "http://proxy.corp:3128")
        #expect(try ProxyServer(url: "socks5://127.0.0.1").port == 1080)
    }

    @Test(
        "Proxy URLs the client cannot use fail with ProxyURLError, whose message never shows the password",
        arguments: [
            "https://user:hunter2@proxy:443", "socks4://user:hunter2@proxy:1080", "http://user:hunter2@proxy:99999",
            "http://user:hunter2@proxy:1/path", "http://user:hunter2@:1",
        ]
    )
    func unusableProxyURLs(url: String) {
        #expect {
            _ = try ProxyServer(url: url)
        } throws: { error in
            guard let error = error as? ProxyURLError else { return false }
            return !error.description.contains("hunter2")
        }
        #expect(throws: ProxyURLError.self) { try ProxyConfiguration.fromEnvironment(["https_proxy": url]) }
    }

    @Test("Routes through different proxies, or one proxy with different credentials, are different pool keys")
    func routesAreDistinct() throws {
        let origin = Origin(scheme: "https", host: "api.test", port: 443)
        let proxyA = try ProxyServer(url: "http://a:1")
        let proxyAWithCredentials = try ProxyServer(url: "http://user:pw@a:1")
        let routes: Set<ConnectionRoute> = [
            ConnectionRoute(origin: origin), ConnectionRoute(origin: origin, proxy: proxyA),
            ConnectionRoute(origin: origin, proxy: proxyAWithCredentials),
            ConnectionRoute(origin: origin, proxy: try ProxyServer(url: "http://b:1")),
            ConnectionRoute(origin: origin, proxy: try ProxyServer(url: "socks5h://a:1")),
        ]
        #expect(routes.count == 5)
        #expect(ConnectionRoute(origin: origin, proxy: proxyA) == ConnectionRoute(origin: origin, proxy: proxyA))
        #expect(ConnectionRoute(origin: origin, proxy: proxyA).needsTunnel)
        let plain = Origin(scheme: "http", host: "api.test", port: 80)
        #expect(ConnectionRoute(origin: plain, proxy: proxyA).forwardsToHTTPProxy)
        #expect(ConnectionRoute(origin: plain, proxy: try ProxyServer(url: "socks5://a:1")).needsTunnel)
        #expect(!ConnectionRoute(origin: plain).needsTunnel && !ConnectionRoute(origin: plain).forwardsToHTTPProxy)
    }
}
