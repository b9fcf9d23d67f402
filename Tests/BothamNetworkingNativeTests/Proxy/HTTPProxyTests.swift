import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient through a real HTTP proxy (tinyproxy): absolute form for http, CONNECT for https",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.httpProxy != nil, "BOTHAM_TEST_HTTP_PROXY unset: \(ProxyTestEnvironment.skipReason)")
)
struct HTTPProxyTests {
    private let proxy: ProxyServer

    init() throws {
        proxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxy)
    }

    @Test("A plain http request goes through the proxy (the origin sees tinyproxy's Via) and a direct one does not")
    func plainHTTPThroughProxy() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let response = try await proxiedClient(ProxyConfiguration(httpProxy: proxy)).send(get(server, "/a?q=1"))
        #expect(response.statusCode == 200)
        #expect(response.body == Data("ok".utf8))
        _ = try await makeClient().send(get(server, "/direct"))
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 2)
        #expect(requests[0].target == "/a?q=1")
        #expect(requests[0].header("Via")?.contains("tinyproxy") == true, "\(requests[0].headers)")
        #expect(requests[1].header("Via") == nil)
    }

    @Test("http_proxy from an environment snapshot is used; no_proxy sends the request directly")
    func environmentAndNoProxy() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let viaEnvironment = try ProxyConfiguration.fromEnvironment(["http_proxy": proxy.description])
        _ = try await proxiedClient(viaEnvironment).send(get(server, "/env"))
        let exempt = try ProxyConfiguration.fromEnvironment([
            "http_proxy": proxy.description, "no_proxy": "localhost,127.0.0.0/8",
        ])
        _ = try await proxiedClient(exempt).send(get(server, "/exempt"))
        let upperCaseOnly = try ProxyConfiguration.fromEnvironment(["HTTP_PROXY": proxy.description])
        _ = try await proxiedClient(upperCaseOnly).send(get(server, "/upper"))
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 3)
        #expect(requests[0].header("Via")?.contains("tinyproxy") == true)
        #expect(requests[1].header("Via") == nil, "no_proxy matched 127.0.0.1")
        #expect(requests[2].header("Via") == nil, "HTTP_PROXY (upper case) is ignored for http")
    }

    @Test(
        "https goes through CONNECT: TLS, the certificate check and the pin are the origin's, never the proxy's",
        .enabled(
            if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
    )
    func httpsThroughConnect() async throws {
        let server = try await NginxTLSServer.start()
        defer { server.stop() }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/hello.txt")
        let pinned = proxiedClient(ProxyConfiguration(httpsProxy: proxy)) {
            $0.tls.trustRoots = .pem(server.caPEM)
            $0.tls.pinnedPublicKeys = ["localhost": [server.serverPin.trimmingCharacters(in: .whitespacesAndNewlines)]]
        }
        let response = try await pinned.send(request)
        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello over TLS".utf8))
        // The timings' connect is to the proxy; the CONNECT round trip lies between it and TLS with the origin.
        let timings = try #require(response.timings)
        expectOrdered(timings)
        let tls = try #require(timings.tlsHandshake, "\(timings)")
        #expect(try tls.start > #require(timings.connect, "\(timings)").end, "\(timings)")
        let connects = ProxyTestEnvironment.logLines(ProxyTestEnvironment.httpProxyLog).filter {
            $0.contains("CONNECT localhost:\(server.port) ")
        }
        #expect(!connects.isEmpty, "tinyproxy's log has no CONNECT to localhost:\(server.port)")

        let wrongPin = proxiedClient(ProxyConfiguration(httpsProxy: proxy)) {
            $0.tls.trustRoots = .pem(server.caPEM)
            $0.tls.pinnedPublicKeys = ["localhost": [Data(repeating: 7, count: 32).base64EncodedString()]]
        }
        let untrusted = await failure(of: request, with: proxiedClient(ProxyConfiguration(httpsProxy: proxy)))
        let untrustedError = try #require(untrusted)
        #expect(failureKind(of: untrustedError) == .secureConnectionFailed, "system roots: not trusted")
        let pinFailure = await failure(of: request, with: wrongPin)
        guard case .networkError(let tlsFailure) = pinFailure, tlsFailure.kind == .secureConnectionFailed else {
            Issue.record("expected a TLS failure, got \(String(describing: pinFailure))")
            return
        }
        #expect((tlsFailure.underlying as? TLSError)?.code == .pinMismatch, "\(tlsFailure)")
    }

    @Test("A CONNECT the proxy cannot open fails with cannotConnect carrying the proxy's status")
    func connectToClosedPort() async throws {
        // Bound and not listening, so connects are refused and no other test's server can take the port meanwhile
        // (a server shut down frees its port for the parallel suite to reuse).
        let closed = try BoundSocket(.ipv4)
        defer { withExtendedLifetime(closed) {} }
        let port = closed.address.port
        let request = HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(port)", path: "/")
        let error = await failure(of: request, with: proxiedClient(ProxyConfiguration(httpsProxy: proxy)))
        guard case .networkError(let failure) = error, failure.kind == .cannotConnect,
            let proxyError = failure.underlying as? NativeProxyError
        else {
            Issue.record("expected cannotConnect with a NativeProxyError, got \(String(describing: error))")
            return
        }
        #expect(proxyError.code == .refused)
        #expect(proxyError.statusCode.map { (400...599).contains($0) } == true, "\(proxyError)")
    }
}
