import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "A ProxyAuthenticator answers a real tinyproxy's 407 once: the retry passes, a wrong or no answer is typed",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.httpProxyWithAuthentication != nil,
        "BOTHAM_TEST_HTTP_PROXY_AUTH unset: \(ProxyTestEnvironment.skipReason)")
)
struct ProxyAuthenticatorTests {
    /// tinyproxy with BasicAuth, its credentials stripped from the URL so that it answers 407.
    private let bareProxy: ProxyServer
    private let right = BasicAuthCredentials(username: "botham", password: "s3cret")
    private let wrong = BasicAuthCredentials(username: "botham", password: "wrong")

    init() throws {
        bareProxy = try ProxyTestEnvironment.proxy(
            ProxyTestEnvironment.httpProxyWithAuthentication, credentials: .some(nil))
    }

    @Test("A plain http request's 407 is answered: the retry passes, and the origin never sees the credentials")
    func answersForwardedRequest() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let asked = ChallengeRecorder(answer: right)
        let client = proxiedClient(ProxyConfiguration(httpProxy: bareProxy, authenticator: asked.authenticator))
        let response = try await client.send(get(server, "/answered"))
        #expect(response.statusCode == 200)
        let asks = asked.asks
        try #require(asks.count == 1)
        expectProxyChallenges(asks[0], from: bareProxy)

        // The accepted answer is remembered: the next call sends it up front and nobody is asked again.
        #expect(try await client.send(get(server, "/again")).statusCode == 200)
        #expect(asked.asks.count == 1)
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.header("Via")?.contains("tinyproxy") == true, "\(request.headers)")
            #expect(!carriesProxyCredentials(request), "\(request.headers)")
        }
    }

    @Test(
        "An https request's 407 to CONNECT is answered: the tunnel opens, TLS runs with the origin, asked once",
        .enabled(
            if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
    )
    func answersConnect() async throws {
        let server = try await NginxTLSServer.start()
        defer { server.stop() }
        let asked = ChallengeRecorder(answer: right)
        let client = proxiedClient(ProxyConfiguration(httpsProxy: bareProxy, authenticator: asked.authenticator)) {
            $0.tls.trustRoots = .pem(server.caPEM)
        }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/hello.txt")
        let response = try await client.send(request)
        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello over TLS".utf8))
        #expect(try await client.send(request).statusCode == 200)
        let asks = asked.asks
        try #require(asks.count == 1, "asked once: the second call reuses the tunnel or sends the answer")
        expectProxyChallenges(asks[0], from: bareProxy)
    }

    @Test("Wrong credentials from the authenticator: one retry, then proxyAuthenticationRequired (never a loop)")
    func wrongAnswerIsTypedAfterOneRetry() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let asked = ChallengeRecorder(answer: wrong)
        let client = proxiedClient(.all(bareProxy, noProxy: NoProxyList()).answered(by: asked.authenticator))
        let tunnelled = HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(server.port)", path: "/")
        let error = try #require(proxyAuthenticationError(await failure(of: tunnelled, with: client)))
        #expect(error.statusCode == 401, "tinyproxy 1.11 answers a wrong password to CONNECT with 401")
        expectProxyChallenges(error.challenges, from: bareProxy)
        #expect(!error.description.contains("wrong"), "the password is redacted: \(error)")
        #expect(asked.asks.count == 1, "asked once, retried once")

        // A forwarded request: tinyproxy's 401 cannot be told from the origin's, so it stays a response (as without
        // an authenticator, `ProxyAuthenticationTests`), after one retry.
        let response = try await client.send(get(server, "/x"))
        #expect(response.statusCode == 401)
        #expect(response.headers["Server"]?.contains("tinyproxy") == true)
        #expect(asked.asks.count == 2, "asked once more, for the second call")
        #expect(server.requestCount == 0, "nothing reached the origin")
        #expect(!"\(asked.asks)".contains("wrong"), "challenges print no password")
    }

    @Test("An authenticator that returns nil gives the typed 407, for http and https alike")
    func nilAnswerIsTyped() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let asked = ChallengeRecorder(answer: nil)
        let client = proxiedClient(ProxyConfiguration.all(bareProxy).answered(by: asked.authenticator))
        let plain = try #require(proxyAuthenticationError(await failure(of: get(server, "/x"), with: client)))
        #expect(plain.statusCode == 407)
        let tunnelled = HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(server.port)", path: "/")
        let connect = try #require(proxyAuthenticationError(await failure(of: tunnelled, with: client)))
        #expect(connect.statusCode == 407)
        #expect(asked.asks.count == 2, "asked for the forwarded request, then for the CONNECT")
        for challenges in asked.asks { expectProxyChallenges(challenges, from: bareProxy) }
        #expect(server.requestCount == 0)
    }

    @Test("A proxy that answers 407 again (as RFC 9110 says it should) ends the call after exactly one retry")
    func conformingProxyRefusingTwice() async throws {
        let refusal =
            "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"mock\"\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        let strictProxy = try makeServer { _ in .raw(refusal, close: true) }
        defer { strictProxy.shutdown() }
        let proxy = ProxyServer(kind: .http, host: "127.0.0.1", port: strictProxy.port)
        let asked = ChallengeRecorder(answer: wrong)
        let client = proxiedClient(ProxyConfiguration(httpProxy: proxy, authenticator: asked.authenticator))
        // Port 9 on loopback: the proxy refuses before any origin would be reached.
        let request = HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:9", path: "/never")
        let error = try #require(proxyAuthenticationError(await failure(of: request, with: client)))
        #expect(error.statusCode == 407)
        #expect(error.challenges.map(\.scheme) == ["Basic"])
        #expect(error.challenges.map(\.realm) == ["mock"])
        #expect(error.challenges.map(\.origin) == ["127.0.0.1:\(strictProxy.port)"])
        #expect(asked.asks.count == 1)
        #expect(asked.asks.first == error.challenges, "the authenticator was given the challenges the error carries")
        let requests = try await strictProxy.takeRecordedRequests()
        try #require(requests.count == 2, "the request, and one retry")
        #expect(requests[0].header(.proxyAuthorization) == nil)
        #expect(requests[1].header(.proxyAuthorization) == wrong.authorizationHeaderValue)
        #expect(requests[1].target == "http://127.0.0.1:9/never")
    }
}

/// Expects `challenges` to be the proxy's: a Basic one, each marked as a proxy's, made by `proxy`'s `host:port`.
private func expectProxyChallenges(
    _ challenges: [AuthenticationChallenge], from proxy: ProxyServer, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(challenges.contains { $0.scheme == "Basic" }, "\(challenges)", sourceLocation: sourceLocation)
    #expect(challenges.allSatisfy { $0.isProxy }, "\(challenges)", sourceLocation: sourceLocation)
    #expect(
        challenges.allSatisfy { $0.origin == "\(proxy.host):\(proxy.port)" }, "\(challenges)",
        sourceLocation: sourceLocation)
}

/// An authenticator that records the challenges of every ask and answers each with the same credentials (or `nil`).
private final class ChallengeRecorder: Sendable {
    private let recorded = Recorder<[AuthenticationChallenge]>()
    private let answer: BasicAuthCredentials?

    init(answer: BasicAuthCredentials?) {
        self.answer = answer
    }

    /// The challenges of each ask, in order.
    var asks: [[AuthenticationChallenge]] { recorded.values }

    var authenticator: ProxyAuthenticator {
        ProxyAuthenticator { [self] challenges in
            recorded.append(challenges)
            return answer
        }
    }
}

extension ProxyConfiguration {
    /// This configuration with `authenticator`.
    fileprivate func answered(by authenticator: ProxyAuthenticator) -> ProxyConfiguration {
        var configuration = self
        configuration.authenticator = authenticator
        return configuration
    }
}
