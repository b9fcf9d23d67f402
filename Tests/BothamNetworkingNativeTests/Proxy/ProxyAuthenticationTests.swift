import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "Proxy credentials against a real tinyproxy with BasicAuth: 407 is typed, credentials reach only the proxy",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.httpProxyWithAuthentication != nil,
        "BOTHAM_TEST_HTTP_PROXY_AUTH unset: \(ProxyTestEnvironment.skipReason)")
)
struct ProxyAuthenticationTests {
    private let proxy: ProxyServer

    init() throws {
        proxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxyWithAuthentication)
    }

    @Test(
        "Without credentials, or with a wrong password, http and https fail with proxyAuthenticationRequired",
        arguments: [nil, BasicAuthCredentials(username: "botham", password: "wrong")] as [BasicAuthCredentials?]
    )
    func missingOrWrongCredentials(credentials: BasicAuthCredentials?) async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let bare = try ProxyTestEnvironment.proxy(
            ProxyTestEnvironment.httpProxyWithAuthentication, credentials: .some(credentials))
        let client = proxiedClient(.all(bare))
        if credentials == nil {
            let plain = try #require(proxyAuthenticationError(await failure(of: get(server, "/x"), with: client)))
            #expect(plain.code == .authenticationRequired)
            #expect(plain.statusCode == 407)
            #expect(plain.challenges.contains { $0.scheme == "Basic" && $0.isProxy }, "\(plain.challenges)")
        } else {
            // tinyproxy 1.11 answers a wrong password with 401 (not 407): for a forwarded request that cannot be
            // told from the origin's own 401, so it stays a response.
            let response = try await client.send(get(server, "/x"))
            #expect(response.statusCode == 401)
            #expect(response.headers["Server"]?.contains("tinyproxy") == true)
        }
        let tunnelled = HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(server.port)", path: "/")
        let connect = try #require(proxyAuthenticationError(await failure(of: tunnelled, with: client)))
        #expect(connect.statusCode == (credentials == nil ? 407 : 401))
        #expect(connect.challenges.contains { $0.scheme == "Basic" && $0.isProxy }, "\(connect.challenges)")
        #expect(!connect.description.contains("wrong"), "the password is redacted: \(connect)")
        #expect(server.requestCount == 0, "nothing reached the origin")
    }

    @Test("With the right credentials the request passes, and the origin never sees them")
    func credentialsStayWithTheProxy() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let response = try await proxiedClient(.all(proxy)).send(get(server, "/secret-safe"))
        #expect(response.statusCode == 200)
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 1)
        #expect(requests[0].header("Via")?.contains("tinyproxy") == true)
        #expect(!carriesProxyCredentials(requests[0]), "\(requests[0].headers)")
    }

    @Test("A redirect from a proxied origin to a no_proxy origin goes direct, without the proxy's credentials")
    func redirectToDirectOrigin() async throws {
        let target = try recordingServer()
        defer { target.shutdown() }
        let start = try makeServer { _ in
            MockResponse(statusCode: 302, headers: ["Location": "http://localhost:\(target.port)/landed"])
        }
        defer { start.shutdown() }
        let client = proxiedClient(.all(proxy, noProxy: NoProxyList("localhost")))
        let response = try await client.send(get(start, "/go"))
        #expect(response.statusCode == 200)
        let first = try await start.takeRecordedRequests()
        let landed = try await target.takeRecordedRequests()
        try #require(first.count == 1 && landed.count == 1)
        #expect(first[0].header("Via")?.contains("tinyproxy") == true, "the first hop went through the proxy")
        #expect(landed[0].header("Via") == nil, "the second hop went direct")
        #expect(landed[0].target == "/landed")
        #expect(!carriesProxyCredentials(landed[0]), "\(landed[0].headers)")
    }
}
