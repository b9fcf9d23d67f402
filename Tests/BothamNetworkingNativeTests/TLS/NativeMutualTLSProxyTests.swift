import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient mutual TLS through real proxies (tinyproxy CONNECT, danted SOCKS5)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.httpProxy != nil && ProxyTestEnvironment.socksProxy != nil,
        "BOTHAM_TEST_HTTP_PROXY or BOTHAM_TEST_SOCKS_PROXY unset: \(ProxyTestEnvironment.skipReason)"),
    .enabled(
        if: NginxMutualTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class NativeMutualTLSProxyTests {
    private let server: NginxMutualTLSServer

    init() async throws {
        server = try await NginxMutualTLSServer.start()
    }

    deinit {
        server.stop()
    }

    @Test(
        "The client certificate reaches the origin through the tunnel, over HTTP/1.1 and HTTP/2",
        arguments: [false, true])
    func throughProxies(http2: Bool) async throws {
        let alice = try server.alicePEM()
        let caPEM = server.caPEM
        let port = http2 ? server.http2Port : server.port
        // Each proxy with what its log must show afterwards (danted keeps none): the origin is on loopback, so only a
        // log proves the tunnel was used.
        let proxies: [(url: String?, log: String?, entry: String?)] = [
            (ProxyTestEnvironment.httpProxy, ProxyTestEnvironment.httpProxyLog, "CONNECT localhost:\(port) "),
            (
                ProxyTestEnvironment.socksProxyWithAuthentication, ProxyTestEnvironment.socksProxyWithAuthenticationLog,
                "target=localhost:\(port) "
            ),
            (ProxyTestEnvironment.socksProxy, nil, nil),
        ]
        for (proxyURL, log, entry) in proxies {
            let proxy = try ProxyTestEnvironment.proxy(proxyURL)
            let logged = entry.map { entry in ProxyTestEnvironment.logLines(log).filter { $0.contains(entry) }.count }
            let client = proxiedClient(.all(proxy)) {
                $0.tls.trustRoots = .pem(caPEM)
                $0.tls.clientIdentity = alice
                if http2 { $0.httpVersion = .http2Only }
            }
            let response = try await client.send(
                HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(port)", path: "/hello.txt"))
            #expect(response.statusCode == 200, "\(proxy)")
            #expect(response.protocolVersion == (http2 ? .http2 : .http1_1), "\(proxy)")
            #expect(response.headers["X-Client-DN"] == "CN=alice", "\(proxy)")
            #expect(response.headers["X-Client-Verify"] == "SUCCESS", "\(proxy)")
            if let entry, let logged {
                let after = ProxyTestEnvironment.logLines(log).filter { $0.contains(entry) }.count
                #expect(after > logged, "the proxy's log has no new \(entry)")
            }
        }
    }
}
