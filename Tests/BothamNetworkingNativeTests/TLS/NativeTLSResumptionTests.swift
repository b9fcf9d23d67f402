import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient TLS session resumption against nginx: OpenSSL's count and nginx's $ssl_session_reused agree",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: NginxMutualTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class NativeTLSResumptionTests {
    private let server: NginxMutualTLSServer

    init() async throws {
        server = try await NginxMutualTLSServer.start()
    }

    deinit {
        server.stop()
    }

    private func configuration(_ change: (inout TLSConfiguration) -> Void = { _ in }) -> TLSConfiguration {
        var tls = TLSConfiguration(trustRoots: .pem(server.caPEM))
        change(&tls)
        return tls
    }

    private func client(_ tls: TLSConfiguration) -> NativeHTTPClient {
        makeClient { $0.tls = tls }
    }

    private func request(port: Int) -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(port)", path: "/hello.txt")
    }

    /// The sessions of the context connections under `tls` use (HTTP/1.1, the identity for localhost).
    private func sessions(_ tls: TLSConfiguration) throws -> TLSSessionCache? {
        try TLSContextCache.context(for: tls, alpn: .http1, identity: tls.clientIdentity(for: "localhost")).get()
            .sessions
    }

    /// nginx's `$ssl_session_reused` for each of `count` requests to `port`, each on a new connection.
    private func reuse(_ client: NativeHTTPClient, port: Int, count: Int) async throws -> [String] {
        var marks: [String] = []
        for _ in 0..<count {
            let response = try await client.send(request(port: port))
            #expect(response.statusCode == 200)
            marks.append(response.headers["X-Session-Reused"] ?? "missing")
        }
        return marks
    }

    @Test(
        "Each new connection resumes a session (TLS 1.3 tickets, TLS 1.2 sessions), and nginx saw the resumption",
        arguments: [false, true])
    func resumes(tls12: Bool) async throws {
        let tls = configuration()
        let client = client(tls)
        let port = tls12 ? server.closingTLS12Port : server.closingPort
        let marks = try await reuse(client, port: port, count: 3)
        #expect(marks == [".", "r", "r"], "nginx's $ssl_session_reused per connection")
        #expect(await client.openedConnectionCount() == 3, "Connection: close: one connection per request")
        let counts = try #require(try sessions(tls)).handshakeCounts
        #expect(counts.full == 1 && counts.resumed == 2, "\(counts)")
        let version = try await client.send(request(port: port)).headers["X-TLS-Protocol"]
        #expect(version == (tls12 ? "TLSv1.2" : "TLSv1.3"))
    }

    @Test("Another pin set does not resume the sessions of a configuration without pins, and a wrong pin still fails")
    func pinsDoNotShareSessions() async throws {
        _ = try await reuse(client(configuration()), port: server.closingPort, count: 2)
        let pinned = client(configuration { $0.pinnedPublicKeys = ["localhost": [self.server.serverPin]] })
        #expect(try await reuse(pinned, port: server.closingPort, count: 2) == [".", "r"])
        let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()
        let wrong = client(configuration { $0.pinnedPublicKeys = ["localhost": [wrongPin]] })
        // TLS 1.2 hands the session over inside the handshake, before the pins are checked.
        for port in [server.closingPort, server.closingPort, server.closingTLS12Port, server.closingTLS12Port] {
            let error = await failure(of: request(port: port), with: wrong)
            guard case .networkError(let failure) = error, let tlsError = failure.underlying as? TLSError else {
                Issue.record("expected a TLS failure, got \(String(describing: error))")
                return
            }
            #expect(tlsError.code == .pinMismatch, "\(tlsError)")
        }
    }

    @Test("A configuration with a client identity does not resume the sessions of one without")
    func identitiesDoNotShareSessions() async throws {
        _ = try await reuse(client(configuration()), port: server.closingPort, count: 2)
        let alice = try server.alicePEM()
        let withIdentity = client(configuration { $0.clientIdentity = alice })
        #expect(try await reuse(withIdentity, port: server.closingPort, count: 2) == [".", "r"])
    }

    @Test("With sessionResumption off no session is stored or offered")
    func off() async throws {
        let tls = configuration { $0.sessionResumption = false }
        #expect(try await reuse(client(tls), port: server.closingPort, count: 3) == [".", ".", "."])
        #expect(try sessions(tls) == nil)
    }

    @Test("A new client (a new pool) resumes a mutual TLS session, and nginx still knows the client certificate")
    func mutualTLSResumes() async throws {
        let alice = try server.alicePEM()
        let tls = configuration { $0.clientIdentity = alice }
        for expected in [".", "r"] {
            let response = try await client(tls).send(request(port: server.port))
            #expect(response.headers["X-Session-Reused"] == expected)
            #expect(response.headers["X-Client-DN"] == "CN=alice")
            #expect(response.headers["X-Client-Verify"] == "SUCCESS")
        }
    }
}
