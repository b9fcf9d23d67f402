import BothamNetworking
import BothamNetworkingNative
import BothamTestSupport
import Foundation
import Testing

@Suite(
    "NativeHTTPClient over Unix domain sockets against nginx",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: UnixSocketNginxServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class UnixSocketNginxTests {
    private let server: UnixSocketNginxServer

    init() async throws {
        server = try await UnixSocketNginxServer.start()
    }

    deinit {
        server.stop()
    }

    private static let big = Data(String(repeating: "0123456789abcdef", count: 20_000).utf8)

    @Test("HTTP/1.1 over nginx's socket: files arrive whole, with Host: localhost, on one kept-alive connection")
    func http1() async throws {
        let api = BothamAPIClient(baseEndpoint: unixEndpoint(server.http1Socket), httpClient: makeClient())

        let hello = try await api.GET("/hello.txt").get()
        let big = try await api.GET("/big.txt").get()
        let again = try await api.GET("/hello.txt").get()

        #expect(hello.statusCode == 200)
        #expect(hello.body == Data("hello over a socket".utf8))
        #expect(big.body == Self.big)
        #expect(again.body == hello.body)
        let log = server.log(of: server.http1Socket)
        #expect(log.count == 3)
        #expect(Set(log.map { $0.split(separator: " ").first ?? "" }).count == 1, "\(log)")
        #expect(log.allSatisfy { $0.hasSuffix("HTTP/1.1 localhost") }, "\(log)")
    }

    @Test("Cleartext HTTP/2 with prior knowledge over nginx's socket: several calls on one connection")
    func http2PriorKnowledge() async throws {
        let client = makeClient { $0.httpVersion = .http2PriorKnowledge }
        let api = BothamAPIClient(baseEndpoint: unixEndpoint(server.http2Socket), httpClient: client)

        let hello = try await api.GET("/hello.txt").get()
        let big = try await api.GET("/big.txt").get()
        async let first = api.GET("/hello.txt")
        async let second = api.GET("/big.txt")
        let (concurrentHello, concurrentBig) = try await (first.get(), second.get())

        #expect(hello.body == Data("hello over a socket".utf8))
        #expect(big.body == Self.big)
        #expect(concurrentHello.body == hello.body)
        #expect(concurrentBig.body == Self.big)
        let log = server.log(of: server.http2Socket)
        #expect(log.count == 4)
        #expect(log.allSatisfy { $0.hasSuffix("HTTP/2.0 localhost") }, "\(log)")
        #expect(Set(log.map { $0.split(separator: " ").first ?? "" }).count == 1, "\(log)")
    }

    @Test("https+unix: TLS over the socket verifies the certificate against localhost with a custom root")
    func tlsOverSocket() async throws {
        let client = makeClient { $0.tls.trustRoots = .pem(self.server.caPEM) }
        let api = BothamAPIClient(
            baseEndpoint: unixEndpoint(server.tlsSocket, scheme: "https+unix"), httpClient: client)

        let hello = try await api.GET("/hello.txt").get()
        let big = try await api.GET("/big.txt").get()

        #expect(hello.body == Data("hello over a socket".utf8))
        #expect(big.body == Self.big)
        #expect(server.log(of: server.tlsSocket).count == 2)
    }

    @Test("https+unix: a TLS session resumes on the socket it came from, never on another socket of the same server")
    func tlsSessionsStayWithTheirSocket() async throws {
        // A pin for a host never called makes a configuration (so a session store) of this test's own.
        let unrelatedPin = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let tls = TLSConfiguration(trustRoots: .pem(server.caPEM), pinnedPublicKeys: ["unrelated.test": [unrelatedPin]])
        func get(_ socket: String) async throws {
            let api = BothamAPIClient(
                baseEndpoint: unixEndpoint(socket, scheme: "https+unix"), httpClient: makeClient { $0.tls = tls })
            #expect(try await api.GET("/hello.txt").get().statusCode == 200)
        }

        try await get(server.tlsSocket)
        try await get(server.otherTLSSocket)
        try await get(server.tlsSocket)

        // nginx's $ssl_session_reused per connection: the other socket's server would accept the first socket's
        // ticket (same keys), so only the client keeping sessions per socket makes its handshake a full one.
        let reused = server.log(of: server.tlsSocket).suffix(3).map { $0.split(separator: " ").last ?? "" }
        #expect(reused == [".", ".", "r"], "\(server.log(of: server.tlsSocket))")
    }

    @Test("https+unix without the custom root fails certificate verification")
    func tlsOverSocketUntrusted() async {
        let request = HTTPRequest(
            method: .get, baseEndpoint: unixEndpoint(server.tlsSocket, scheme: "https+unix"), path: "/hello.txt")

        let error = await failure(of: request, with: makeClient { $0.tls.trustRoots = .system })

        guard case .networkError(let failure) = error, failure.kind == .secureConnectionFailed else {
            Issue.record("not secureConnectionFailed: \(String(describing: error))")
            return
        }
        #expect((failure.underlying as? TLSError)?.code == .certificateVerification)
    }
}
