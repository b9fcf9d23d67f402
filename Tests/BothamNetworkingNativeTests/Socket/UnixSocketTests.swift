import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// A `MockWebServer` listening on a new socket file in the temporary directory, answering with `answer`.
func unixSocketServer(_ answer: @escaping @Sendable (RecordedRequest) -> MockResponse) throws -> MockWebServer {
    var configuration = MockWebServer.Configuration()
    configuration.unixSocketPath = temporarySocketPath()
    let server = try MockWebServer(configuration: configuration)
    server.setDispatcher(answer)
    return server
}

/// A path for a socket file that does not exist yet, short enough for `sun_path`.
func temporarySocketPath(_ name: String = "server") -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("botham-\(UUID().uuidString.prefix(8))-\(name).sock").path
}

/// The `http+unix://` base endpoint of the socket at `path`.
func unixEndpoint(_ path: String, scheme: String = "http+unix") -> String {
    let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return "\(scheme)://" + (path.addingPercentEncoding(withAllowedCharacters: unreserved) ?? path)
}

@Suite("NativeHTTPClient over a Unix domain socket (MockWebServer)", .timeLimit(.minutes(1)))
struct UnixSocketTests {
    private func echoServer() throws -> MockWebServer {
        try unixSocketServer { request in
            MockResponse(
                statusCode: 200,
                headers: ["X-Method": request.method.rawValue, "X-Target": request.target],
                body: request.body
            )
        }
    }

    @Test("MockWebServer on a socket file has an http+unix base URL with the path percent-encoded, and port 0")
    func serverURL() throws {
        let path = temporarySocketPath()
        var configuration = MockWebServer.Configuration()
        configuration.unixSocketPath = path
        let server = try MockWebServer(configuration: configuration)
        defer { server.shutdown() }
        #expect(server.baseURL.absoluteString == unixEndpoint(path))
        #expect(server.baseURL.host == path)
        #expect(server.port == 0)
        #expect(server.url("/a?b=1").absoluteString == unixEndpoint(path) + "/a?b=1")
        #expect(FileManager.default.fileExists(atPath: path))
        server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file outlived the server")
    }

    @Test("GET and POST over the socket send their method, target, body and Host: localhost, and read the response")
    func getAndPost() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let api = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: makeClient())

        let got = try await api.GET("/v1.43/containers/json", parameters: ["all": "1"]).get()
        let posted = try await api.POST("/containers/create", body: .text("{\"Image\":\"alpine\"}")).get()

        #expect(got.statusCode == 200)
        #expect(got.headers["X-Target"] == "/v1.43/containers/json?all=1")
        #expect(got.url == server.url("/v1.43/containers/json?all=1"))
        #expect(posted.headers["X-Method"] == "POST")
        #expect(posted.body == Data("{\"Image\":\"alpine\"}".utf8))
        let received = try await server.takeRecordedRequests()
        #expect(received.map { $0.header("Host") } == ["localhost", "localhost"])
        #expect(received[1].header("Content-Length") == "18")
    }

    @Test("A Host field the caller sets is sent as given")
    func callerHost() async throws {
        let server = try echoServer()
        defer { server.shutdown() }

        _ = try await makeClient().send(get(server, "/", headers: ["Host": "docker.example"]))

        #expect(try await server.takeRequest().header("Host") == "docker.example")
    }

    @Test("Sequential calls reuse one kept-alive connection to the socket")
    func keepAlive() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let client = makeClient()

        for index in 0..<5 {
            #expect(try await client.send(get(server, "/\(index)")).statusCode == 200)
        }

        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("Over HTTP/2 with prior knowledge several calls share one connection to the socket")
    func http2PriorKnowledge() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let client = makeClient { $0.httpVersion = .http2PriorKnowledge }

        for index in 0..<3 {
            #expect(try await client.send(get(server, "/h2/\(index)")).statusCode == 200)
        }

        let received = try await server.takeRecordedRequests()
        #expect(received.map(\.version) == ["HTTP/2", "HTTP/2", "HTTP/2"])
        #expect(received[0].header("Host") == "localhost")
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("A streamed response hands over its head and first part before the rest of the body exists")
    func streaming() async throws {
        let server = try unixSocketServer { _ in
            MockResponse().streaming([StubChunk("first\n"), StubChunk("second\n", after: .seconds(30))])
        }
        defer { server.shutdown() }
        let api = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: makeClient())

        let streamed = try await api.stream(.get, "/events", callTimeout: TestTimeScale.scaled(.seconds(10)))
        var iterator = streamed.body.makeAsyncIterator()
        let first = try await iterator.next()

        #expect(streamed.head.statusCode == 200)
        #expect(first == Data("first\n".utf8))
        streamed.body.cancel()
    }

    @Test("A server that never answers ends the call with a timeout")
    func timeout() async throws {
        let server = try unixSocketServer { _ in .hang }
        defer { server.shutdown() }
        let client = makeClient()
        let start = ContinuousClock.now

        let error = await failure(of: get(server, "/slow").withTimeout(.milliseconds(300)), with: client)

        guard case .timeout = error else {
            Issue.record("not a timeout: \(String(describing: error))")
            return
        }
        #expect(ContinuousClock.now - start < TestTimeScale.scaled(.seconds(10)))
    }

    @Test("Cancelling the calling task ends a call waiting on the socket with cancelled")
    func cancellation() async throws {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let server = try unixSocketServer { _ in
            arrived.yield()
            return .hang
        }
        defer { server.shutdown() }
        let client = makeClient()
        let call = Task { await failure(of: get(server, "/wait"), with: client) }
        var waiting = arrivals.makeAsyncIterator()
        _ = await waiting.next()

        call.cancel()
        let error = await call.value

        guard case .cancelled = error else {
            Issue.record("not cancelled: \(String(describing: error))")
            return
        }
    }

    @Test("A redirect within the socket origin is followed over the socket")
    func redirectWithinSocket() async throws {
        let server = try unixSocketServer { request in
            request.path == "/old"
                ? MockResponse(statusCode: 301, headers: ["Location": "/new"])
                : MockResponse(body: Data("moved here".utf8))
        }
        defer { server.shutdown() }

        let response = try await makeClient().send(get(server, "/old"))

        #expect(response.statusCode == 200)
        #expect(response.body == Data("moved here".utf8))
        #expect(response.url == server.url("/new"))
    }

    @Test("A TCP server's redirect to an http+unix URL is not followed: the 3xx comes back as it is")
    func noRedirectOntoSocket() async throws {
        let socketServer = try echoServer()
        defer { socketServer.shutdown() }
        let tcpServer = try makeServer { _ in
            MockResponse(statusCode: 302, headers: ["Location": socketServer.url("/containers/json").absoluteString])
        }
        defer { tcpServer.shutdown() }

        let response = try await makeClient().send(get(tcpServer, "/start"))

        #expect(response.statusCode == 302)
        #expect(socketServer.requestCount == 0)
    }

    @Test("A configured proxy is ignored for a socket origin")
    func proxyIgnored() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        // Nothing listens on port 1: a call that went through this proxy would fail.
        let proxy = ProxyServer(kind: .http, host: "127.0.0.1", port: 1)
        let client = makeClient { $0.proxy = .all(proxy) }

        let response = try await client.send(get(server, "/direct"))

        #expect(response.statusCode == 200)
        #expect(try await server.takeRequest().target == "/direct")
    }

    @Test("A missing socket file fails with networkError(cannotConnect) naming the path")
    func missingSocketFile() async {
        let path = temporarySocketPath("missing")
        let request = HTTPRequest(method: .get, baseEndpoint: unixEndpoint(path), path: "/_ping")

        let error = await failure(of: request, with: makeClient())

        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.kind == .cannotConnect)
        let underlying = failure.underlying as? NativeTransportError
        #expect(underlying?.reason.contains(path) == true, "\(String(describing: underlying))")
        #expect(underlying?.reason.contains("No such file or directory") == true)
    }

    @Test("A file that is not a listening socket fails with networkError(cannotConnect) naming the path")
    func notASocket() async throws {
        let path = temporarySocketPath("plain")
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = HTTPRequest(method: .get, baseEndpoint: unixEndpoint(path), path: "/")

        let error = await failure(of: request, with: makeClient())

        guard case .networkError(let failure) = error else {
            Issue.record("not a network error: \(String(describing: error))")
            return
        }
        #expect(failure.kind == .cannotConnect)
        #expect((failure.underlying as? NativeTransportError)?.reason.contains(path) == true)
    }

    @Test("A socket path longer than sun_path fails with invalidRequest before anything is sent")
    func pathTooLong() async {
        let path = "/tmp/" + String(repeating: "d", count: 120) + ".sock"
        let request = HTTPRequest(method: .get, baseEndpoint: unixEndpoint(path), path: "/")

        let error = await failure(of: request, with: makeClient())

        guard case .invalidRequest(let reason) = error else {
            Issue.record("not invalidRequest: \(String(describing: error))")
            return
        }
        #expect(reason.contains("at most 107"), "\(reason)")
    }

    @Test("A path of 107 bytes, the most sun_path holds with its NUL, connects")
    func longestPath() async throws {
        var path = FileManager.default.temporaryDirectory
            .appendingPathComponent("botham-\(UUID().uuidString.prefix(8))-").path
        path += String(repeating: "p", count: 107 - path.utf8.count - 5) + ".sock"
        #expect(path.utf8.count == 107)
        var configuration = MockWebServer.Configuration()
        configuration.unixSocketPath = path
        let server = try MockWebServer(configuration: configuration)
        defer { server.shutdown() }
        server.setDispatcher { _ in MockResponse(body: Data("ok".utf8)) }

        #expect(try await makeClient().send(get(server, "/")).body == Data("ok".utf8))
    }
}

@Suite("URLSessionHTTPClient and Unix domain sockets", .timeLimit(.minutes(1)))
struct UnixSocketURLSessionTests {
    @Test("URLSessionHTTPClient fails an http+unix URL with invalidRequest naming NativeHTTPClient, sending nothing")
    func urlSessionRefuses() async throws {
        let server = try unixSocketServer { _ in MockResponse() }
        defer { server.shutdown() }
        let api = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString, httpClient: URLSessionHTTPClient(),
            configuration: .init(maxRetries: 0))

        let result = await api.GET("/_ping")

        guard case .failure(.invalidRequest(let reason)) = result else {
            Issue.record("not invalidRequest: \(result)")
            return
        }
        #expect(reason.contains("NativeHTTPClient"), "\(reason)")
        #expect(server.requestCount == 0)
    }
}
