import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient through a real SOCKS5 proxy without authentication (danted)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.socksProxy != nil, "BOTHAM_TEST_SOCKS_PROXY unset: \(ProxyTestEnvironment.skipReason)")
)
struct SOCKSProxyTests {
    private let proxy: ProxyServer

    init() throws {
        proxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.socksProxy)
    }

    @Test("http through socks5h (the proxy resolves the name) and socks5 (the client does) reaches the origin")
    func plainHTTP() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let byName = proxiedClient(.all(proxy))
        let response = try await byName.send(
            HTTPRequest(method: .get, baseEndpoint: "http://localhost:\(server.port)", path: "/by-name"))
        #expect(response.body == Data("ok".utf8))
        let resolver = TableResolver([
            "origin.test": [NetworkAddress(ip: "127.0.0.1", port: server.port)].compactMap { $0 }
        ])
        var local = proxy
        local.kind = .socks5
        let byAddress = proxiedClient(.all(local)) { $0.nameResolver = resolver }
        _ = try await byAddress.send(
            HTTPRequest(method: .get, baseEndpoint: "http://origin.test:\(server.port)", path: "/by-address"))
        #expect(resolver.calls.value == 1, "socks5: the client resolved the origin's name itself")
        let requests = try await server.takeRecordedRequests()
        #expect(requests.map(\.target) == ["/by-name", "/by-address"])
        #expect(requests.allSatisfy { $0.header("Via") == nil }, "a SOCKS proxy is a tunnel: no Via")
    }

    @Test(
        "https through SOCKS5: TLS and the pin are the origin's",
        .enabled(
            if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
    )
    func httpsThroughSOCKS() async throws {
        let server = try await NginxTLSServer.start()
        defer { server.stop() }
        let client = proxiedClient(.all(proxy)) {
            $0.tls.trustRoots = .pem(server.caPEM)
            $0.tls.pinnedPublicKeys = ["localhost": [server.serverPin.trimmingCharacters(in: .whitespacesAndNewlines)]]
        }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/hello.txt")
        let response = try await client.send(request)
        #expect(response.body == Data("hello over TLS".utf8))
        let wrongPin = proxiedClient(.all(proxy)) {
            $0.tls.trustRoots = .pem(server.caPEM)
            $0.tls.pinnedPublicKeys = ["localhost": [Data(repeating: 1, count: 32).base64EncodedString()]]
        }
        let error = await failure(of: request, with: wrongPin)
        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect((failure.underlying as? TLSError)?.code == .pinMismatch, "\(failure)")
    }

    @Test("A SOCKS5 CONNECT to a closed port fails with cannotConnect and the proxy's reply")
    func closedPort() async throws {
        // Bound and not listening, so connects are refused and no other test's server can take the port meanwhile
        // (a server shut down frees its port for the parallel suite to reuse).
        let closed = try BoundSocket(.ipv4)
        defer { withExtendedLifetime(closed) {} }
        let port = closed.address.port
        let error = await failure(
            of: HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:\(port)", path: "/"),
            with: proxiedClient(.all(proxy)))
        guard case .networkError(let failure) = error, failure.kind == .cannotConnect,
            let proxyError = failure.underlying as? NativeProxyError
        else {
            Issue.record("expected cannotConnect with a NativeProxyError, got \(String(describing: error))")
            return
        }
        #expect(proxyError.code == .refused, "\(proxyError)")
    }
}

@Suite(
    "NativeHTTPClient through a real SOCKS5 proxy with username/password (RFC 1929, scripts/socks5-server.py)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.socksProxyWithAuthentication != nil,
        "BOTHAM_TEST_SOCKS_PROXY_AUTH unset: \(ProxyTestEnvironment.skipReason)")
)
struct SOCKSProxyAuthenticationTests {
    private let proxy: ProxyServer

    init() throws {
        proxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.socksProxyWithAuthentication)
    }

    private func tunnelLog() -> [String] {
        ProxyTestEnvironment.logLines(ProxyTestEnvironment.socksProxyWithAuthenticationLog)
    }

    @Test("With credentials: socks5h sends the name, socks5 the address the client resolved; the origin sees neither")
    func authenticated() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        _ = try await proxiedClient(.all(proxy)).send(
            HTTPRequest(method: .get, baseEndpoint: "http://localhost:\(server.port)", path: "/h"))
        #expect(tunnelLog().contains("CONNECT user=botham target=localhost:\(server.port) type=3"), "\(tunnelLog())")
        var local = proxy
        local.kind = .socks5
        let resolver = TableResolver([
            "origin.test": [NetworkAddress(ip: "127.0.0.1", port: server.port)].compactMap { $0 }
        ])
        _ = try await proxiedClient(.all(local)) { $0.nameResolver = resolver }.send(
            HTTPRequest(method: .get, baseEndpoint: "http://origin.test:\(server.port)", path: "/a"))
        #expect(tunnelLog().contains("CONNECT user=botham target=127.0.0.1:\(server.port) type=1"), "\(tunnelLog())")
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 2)
        #expect(!requests.contains { carriesProxyCredentials($0) })
    }

    @Test(
        "Without credentials, or with a wrong password, the call fails with proxyAuthenticationRequired",
        arguments: [nil, BasicAuthCredentials(username: "botham", password: "wrong")] as [BasicAuthCredentials?]
    )
    func rejected(credentials: BasicAuthCredentials?) async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        var bare = proxy
        bare.credentials = credentials
        let error = await failure(of: get(server, "/"), with: proxiedClient(.all(bare)))
        let proxyError = try #require(proxyAuthenticationError(error), "\(String(describing: error))")
        #expect(proxyError.code == .authenticationRequired)
        #expect(!proxyError.description.contains("wrong"))
        #expect(server.requestCount == 0)
    }
}
