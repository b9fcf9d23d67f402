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
    private let right = ProxyCredentials(username: "botham", password: "s3cret")
    private let wrong = ProxyCredentials(username: "botham", password: "wrong")

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
        let challenges = asked.challenges
        try #require(challenges.count == 1)
        #expect(challenges[0].statusCode == 407)
        #expect(!challenges[0].isTunnel)
        #expect(challenges[0].origin == "127.0.0.1:\(server.port)")
        #expect(challenges[0].proxy.credentials == nil, "nothing was sent the first time")
        #expect(challenges[0].challenges.contains { $0.hasPrefix("Basic") }, "\(challenges[0].challenges)")

        // The accepted answer is remembered: the next call sends it up front and nobody is asked again.
        #expect(try await client.send(get(server, "/again")).statusCode == 200)
        #expect(asked.challenges.count == 1)
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
        let challenges = asked.challenges
        try #require(challenges.count == 1, "asked once: the second call reuses the tunnel or sends the answer")
        #expect(challenges[0].statusCode == 407)
        #expect(challenges[0].isTunnel)
        #expect(challenges[0].origin == "localhost:\(server.port)")
        #expect(challenges[0].challenges.contains { $0.hasPrefix("Basic") }, "\(challenges[0].challenges)")
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
        #expect(error.challenges.contains { $0.hasPrefix("Basic") }, "\(error.challenges)")
        #expect(!error.description.contains("wrong"), "the password is redacted: \(error)")
        #expect(asked.challenges.count == 1, "asked once, retried once")

        // A forwarded request: tinyproxy's 401 cannot be told from the origin's, so it stays a response (as without
        // an authenticator, `ProxyAuthenticationTests`), after one retry.
        let response = try await client.send(get(server, "/x"))
        #expect(response.statusCode == 401)
        #expect(response.headers["Server"]?.contains("tinyproxy") == true)
        #expect(asked.challenges.count == 2, "asked once more, for the second call")
        #expect(server.requestCount == 0, "nothing reached the origin")
        #expect(!asked.challenges.map(\.description).joined().contains("wrong"), "challenges print no password")
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
        #expect(asked.challenges.map(\.isTunnel) == [false, true])
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
        #expect(error.challenges == ["Basic realm=\"mock\""])
        #expect(asked.challenges.count == 1)
        let requests = try await strictProxy.takeRecordedRequests()
        try #require(requests.count == 2, "the request, and one retry")
        #expect(requests[0].header(.proxyAuthorization) == nil)
        #expect(requests[1].header(.proxyAuthorization) == wrong.basicAuthorization)
        #expect(requests[1].target == "http://127.0.0.1:9/never")
    }
}

/// An authenticator that records every challenge and answers each with the same credentials (or `nil`).
private final class ChallengeRecorder: Sendable {
    private let recorded = Recorder<ProxyAuthenticationChallenge>()
    private let answer: ProxyCredentials?

    init(answer: ProxyCredentials?) {
        self.answer = answer
    }

    var challenges: [ProxyAuthenticationChallenge] { recorded.values }

    var authenticator: ProxyAuthenticator {
        ProxyAuthenticator { [self] challenge in
            recorded.append(challenge)
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
