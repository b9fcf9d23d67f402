import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "The connection pool through real proxy routes (tinyproxy, danted): reuse per route, never across routes",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.httpProxy != nil && ProxyTestEnvironment.socksProxy != nil
            && ProxyTestEnvironment.httpProxyWithAuthentication != nil,
        "BOTHAM_TEST_HTTP_PROXY, BOTHAM_TEST_SOCKS_PROXY or BOTHAM_TEST_HTTP_PROXY_AUTH unset: \(ProxyTestEnvironment.skipReason)"
    )
)
struct ProxyPoolRouteTests {
    private let httpProxy: ProxyServer
    private let socksProxy: ProxyServer
    private let authProxy: ProxyServer

    init() throws {
        httpProxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxy)
        socksProxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.socksProxy)
        authProxy = try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxyWithAuthentication)
    }

    /// tinyproxy's log lines of a `CONNECT` to `authority`.
    private func connectLines(to authority: String) -> [String] {
        ProxyTestEnvironment.logLines(ProxyTestEnvironment.httpProxyLog).filter { $0.contains("CONNECT \(authority) ") }
    }

    @Test(
        "Two sequential https requests to one origin through the proxy reuse one tunnel: one CONNECT in its log",
        .enabled(
            if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
    )
    func httpsReusesOneTunnel() async throws {
        let server = try await NginxTLSServer.start()
        defer { server.stop() }
        let client = proxiedClient(ProxyConfiguration(httpsProxy: httpProxy)) { $0.tls.trustRoots = .pem(server.caPEM) }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/hello.txt")
        for _ in 0..<2 {
            let response = try await client.send(request)
            #expect(response.body == Data("hello over TLS".utf8))
        }
        let connects = connectLines(to: "localhost:\(server.port)")
        #expect(connects.count == 1, "\(connects)")
    }

    @Test("Two sequential http requests through a SOCKS5 proxy reuse one connection: one connection at the origin")
    func socksReusesOneConnection() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let client = proxiedClient(.all(socksProxy))
        for path in ["/one", "/two"] {
            #expect(try await client.send(get(server, path)).statusCode == 200)
        }
        let requests = try await server.takeRecordedRequests()
        try #require(requests.count == 2)
        #expect(requests.map(\.connectionIndex) == [0, 0], "one connection carried both")
        #expect(requests.map(\.sequenceNumber) == [0, 1])
    }

    @Test(
        "One pool keeps an origin's direct, HTTP-proxied, SOCKS5 and other-credential connections apart, and reuses each"
    )
    func routesNeverShare() async throws {
        let loop = try #require(EventLoop.shared)
        let server = try recordingServer()
        defer { server.shutdown() }
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: server.port)
        var otherCredentials = authProxy
        otherCredentials.credentials = BasicAuthCredentials(username: "someone", password: "else")
        let routes = [
            ConnectionRoute(origin: origin),
            ConnectionRoute(origin: origin, proxy: httpProxy),
            ConnectionRoute(origin: origin, proxy: socksProxy),
            ConnectionRoute(origin: origin, proxy: authProxy),
            ConnectionRoute(origin: origin, proxy: otherCredentials),
        ]
        let pool = ConnectionPool(
            loop: loop, maxConnectionsPerHost: 8, idleTimeout: 30_000_000_000,
            connectSettings: NativeHTTPClient.Configuration().makeConnectSettings())
        defer { loop.execute { pool.shutdown() } }

        var first: [ObjectIdentifier] = []
        for route in routes {
            let taken = try await PoolTaker.take(route, from: pool, on: loop)
            #expect(!taken.reused, "a new connection for \(route.proxy.map(String.init(describing:)) ?? "direct")")
            first.append(taken.connection)
        }
        #expect(Set(first).count == routes.count, "no two routes share a connection")
        for (route, connection) in zip(routes, first) {
            let taken = try await PoolTaker.take(route, from: pool, on: loop)
            #expect(taken.reused && taken.connection == connection, "each route gets its own idle connection back")
        }
        let opened = await withCheckedContinuation { done in loop.execute { done.resume(returning: pool.openedCount) } }
        #expect(opened == routes.count)
    }

    @Test("A no_proxy-matched origin goes direct (no Via, no CONNECT) while an unmatched one uses the proxy")
    func noProxyGoesDirect() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let client = proxiedClient(.all(httpProxy, noProxy: NoProxyList("localhost")))
        let exemptTLS = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/")
        // Not TLS at the origin: the handshake fails, but only after a direct connection (no CONNECT was sent).
        #expect(await failure(of: exemptTLS, with: client).map(failureKind(of:)) == .secureConnectionFailed)
        #expect(connectLines(to: "localhost:\(server.port)").isEmpty)
        let exempt = HTTPRequest(method: .get, baseEndpoint: "http://localhost:\(server.port)", path: "/direct")
        let proxied = HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:\(server.port)", path: "/proxied")
        #expect(try await client.send(exempt).statusCode == 200)
        #expect(try await client.send(proxied).statusCode == 200)
        let requests = try await server.takeRecordedRequests().filter { $0.path != "/" }
        try #require(requests.count == 2)
        #expect(requests[0].path == "/direct" && requests[0].header("Via") == nil, "\(requests[0].headers)")
        #expect(requests[1].path == "/proxied" && requests[1].header("Via")?.contains("tinyproxy") == true)
    }
}

/// Takes one connection from a pool along a route, waits until it is ready (connected, tunnel open), and gives it
/// back as idle. `@unchecked Sendable`: its state is only touched on the loop thread.
private final class PoolTaker: ConnectionPoolClient, ConnectionDelegate, @unchecked Sendable {
    struct Taken: Sendable {
        let connection: ObjectIdentifier
        let reused: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let pool: ConnectionPool
    private let loop: EventLoop
    private var continuation: CheckedContinuation<Result<Taken, Failure>, Never>?
    private var connection: Connection?
    private var reused = false
    private var timer: UInt64?

    private init(pool: ConnectionPool, loop: EventLoop) {
        self.pool = pool
        self.loop = loop
    }

    /// A connection of `route`, ready, then released to the pool (within 5 s, or a failure).
    static func take(_ route: ConnectionRoute, from pool: ConnectionPool, on loop: EventLoop) async throws -> Taken {
        let taker = PoolTaker(pool: pool, loop: loop)
        let result = await withCheckedContinuation { continuation in
            loop.execute {
                taker.continuation = continuation
                taker.timer = loop.scheduleTimer(at: MonotonicClock.now() &+ 5_000_000_000) {
                    taker.finish(.failure(Failure(description: "\(route.proxy?.description ?? "direct") not ready")))
                }
                pool.acquire(route, tlsContext: nil, for: taker, fresh: false)
            }
        }
        return try result.get()
    }

    func assign(_ carrier: any ExchangeCarrier, reused: Bool) {
        guard let connection = carrier as? Connection else {
            return finish(.failure(Failure(description: "an HTTP/2 stream where a connection was expected")))
        }
        self.connection = connection
        self.reused = reused
        connection.delegate = self
        if connection.isReady { ready() }
    }

    func connectionIsReady(_ connection: Connection) { ready() }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {}

    func connection(_ connection: Connection, didFail failure: ConnectionFailure) {
        pool.discard(connection)
        self.connection = nil
        finish(.failure(Failure(description: "the connection failed: \(failure)")))
    }

    private func ready() {
        guard let connection else { return }
        self.connection = nil
        pool.release(connection)
        finish(.success(Taken(connection: ObjectIdentifier(connection), reused: reused)))
    }

    private func finish(_ result: Result<Taken, Failure>) {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        continuation?.resume(returning: result)
        continuation = nil
    }
}
