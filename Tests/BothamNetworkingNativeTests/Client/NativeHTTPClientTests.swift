import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("NativeHTTPClient requests and keep-alive", .timeLimit(.minutes(1)))
struct NativeHTTPClientTests {
    private func echoServer() throws -> MockWebServer {
        try makeServer { request in
            MockResponse(
                statusCode: 200,
                headers: ["X-Method": request.method.rawValue, "X-Target": request.target],
                body: request.body
            )
        }
    }

    @Test("GET, POST, PUT and DELETE send their method, target and body and read the response")
    func methodsAndBodies() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let client = makeClient()
        for method in [HTTPMethod.get, .post, .put, .delete] {
            let body: HTTPBody? = method == .get ? nil : .text("body of \(method.rawValue)")
            let request = HTTPRequest(
                method: method,
                baseEndpoint: server.baseURL.absoluteString,
                path: "/items/1",
                parameters: ["q": "a b"],
                body: body
            )
            let response = try await client.send(request)
            #expect(response.statusCode == 200)
            #expect(response.headers["X-Method"] == method.rawValue)
            #expect(response.headers["X-Target"] == "/items/1?q=a%20b")
            #expect(response.body == (method == .get ? Data() : Data("body of \(method.rawValue)".utf8)))
        }
        let received = try await server.takeRecordedRequests()
        #expect(received.map(\.method) == ["GET", "POST", "PUT", "DELETE"])
        #expect(received[0].header("Host") == "127.0.0.1:\(server.port)")
        #expect(received[1].header("Content-Length") == "12")
        #expect(received[0].header("Accept-Encoding") == "gzip, deflate")
    }

    @Test("A client with every option set (timeouts, size limit, redirects, trust roots, pins for another host) works")
    func everyOptionSet() async throws {
        let server = try makeServer { _ in MockResponse(body: Data("{}".utf8)) }
        defer { server.shutdown() }

        var configuration = NativeHTTPClient.Configuration()
        configuration.limits.idleTimeout = .milliseconds(800)  // no byte either way for this long; sub-second works
        configuration.limits.maxAttemptTimeout = .seconds(5)  // the whole attempt, redirects included
        configuration.limits.maxResponseBytes = 2 << 20  // bigger bodies fail with .responseTooLarge
        configuration.redirectPolicy = .followAtMost(5)
        configuration.tls.trustRoots = .system
        configuration.tls.pinnedPublicKeys = ["api.example.com": ["sha256/" + Data(count: 32).base64EncodedString()]]
        let apiClient = BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: NativeHTTPClient(configuration: configuration)
        )
        let result = await apiClient.send(
            HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/users/1"))
        #expect(try result.get().statusCode == 200)
    }

    @Test("Sequential requests reuse one kept-alive connection")
    func keepAliveReuse() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let client = makeClient()
        for index in 0..<20 {
            let response = try await client.send(get(server, "/\(index)"))
            #expect(response.statusCode == 200)
        }
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("Concurrent requests respect the per-host connection limit and all complete")
    func connectionLimit() async throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let client = makeClient { $0.maxConnectionsPerHost = 2 }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<12 {
                group.addTask { try await client.send(get(server, "/\(index)")).statusCode }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(server.acceptedConnectionCount <= 2)
        #expect(server.requestCount == 12)
    }

    @Test("A response with Connection: close is not reused")
    func connectionClose() async throws {
        let server = try makeServer { _ in
            MockResponse(statusCode: 200, headers: [.connection: "close"], body: Data("x".utf8))
        }
        defer { server.shutdown() }
        let client = makeClient()
        for _ in 0..<3 {
            let response = try await client.send(get(server))
            #expect(response.body == Data("x".utf8))
        }
        #expect(server.acceptedConnectionCount == 3)
    }

    @Test("A large body read straight into memory arrives intact; bytes sent after it keep its connection from reuse")
    func largeBodyThenExtraBytes() async throws {
        let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        let server = try makeServer { request in
            request.target == "/extra"
                ? .raw(head + body + Data("EXTRA".utf8), close: false) : .raw(head + body, close: false)
        }
        defer { server.shutdown() }
        let client = makeClient()
        for path in ["/clean", "/clean", "/extra", "/clean"] {
            let response = try await client.send(
                HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: path))
            #expect(response.body == body, "\(path)")
        }
        // The two clean bodies share a connection; the one followed by extra bytes ends its connection.
        #expect(server.acceptedConnectionCount == 2)
    }

    @Test("Chunked responses are reassembled and their trailers dropped; the connection is reused")
    func chunked() async throws {
        let wire =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\nX-Trailer: t\r\n\r\n"
        let server = try makeServer { _ in .raw(wire, close: false) }
        defer { server.shutdown() }
        let client = makeClient()
        for _ in 0..<2 {
            let response = try await client.send(get(server))
            #expect(String(decoding: response.body, as: UTF8.self) == "hello world!")
            #expect(response.headers["X-Trailer"] == nil)
        }
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("HEAD, 204 and 304 responses have no body even with a Content-Length, and the connection stays usable")
    func responsesWithoutBody() async throws {
        let server = try makeServer { request in
            switch request.target {
            case "/204": return .raw("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", close: false)
            case "/304": return .raw("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", close: false)
            default: return MockResponse(body: Data("0123456789".utf8))
            }
        }
        defer { server.shutdown() }
        let client = makeClient()
        let head = try await client.send(
            HTTPRequest(method: .head, baseEndpoint: server.baseURL.absoluteString, path: "/x"))
        #expect(head.statusCode == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers[.contentLength] == "10")
        #expect(try await client.send(get(server, "/204")).body.isEmpty)
        #expect(try await client.send(get(server, "/304")).statusCode == 304)
        #expect(try await client.send(get(server, "/x")).body == Data("0123456789".utf8))
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("1xx interim responses are skipped and close-delimited bodies read to the end")
    func interimAndCloseDelimited() async throws {
        let wire =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.0 200 OK\r\n\r\nuntil close"
        let server = try makeServer { _ in .raw(wire, close: true) }
        defer { server.shutdown() }
        let response = try await makeClient().send(get(server))
        #expect(response.statusCode == 200)
        #expect(response.headers["Link"] == nil)
        #expect(String(decoding: response.body, as: UTF8.self) == "until close")
    }

    @Test("More than 16 interim responses before the final one fail as a bad server response")
    func tooManyInterimResponses() async throws {
        let interim = String(repeating: "HTTP/1.1 103 Early Hints\r\n\r\n", count: 17)
        let server = try makeServer { _ in .raw(interim + "HTTP/1.1 200 OK\r\n\r\nlate", close: true) }
        defer { server.shutdown() }
        let error = await failure(of: get(server), with: makeClient())
        #expect(error.flatMap(failureKind) == .badServerResponse)
        let sixteen = String(repeating: "HTTP/1.1 103 Early Hints\r\n\r\n", count: 16)
        let fine = try makeServer { _ in .raw(sixteen + "HTTP/1.1 200 OK\r\n\r\nok", close: true) }
        defer { fine.shutdown() }
        #expect(try await makeClient().send(get(fine)).body == Data("ok".utf8))
    }

    @Test("A stale kept-alive connection is retried once for idempotent requests, never for POST")
    func staleConnectionRetry() async throws {
        let server = try makeServer { request in
            // The second request on the first connection finds the server gone, as when its idle timer fired.
            if request.connectionIndex == 0 && request.target.hasPrefix("/second") { return .close }
            return MockResponse(body: Data("ok".utf8))
        }
        defer { server.shutdown() }
        let client = makeClient()
        _ = try await client.send(get(server, "/first"))
        let retried = try await client.send(get(server, "/second"))
        #expect(retried.body == Data("ok".utf8))
        #expect(server.acceptedConnectionCount == 2)

        let other = try makeServer { request in
            if request.connectionIndex == 0 && request.target.hasPrefix("/second") { return .close }
            return MockResponse()
        }
        defer { other.shutdown() }
        _ = try await client.send(get(other, "/first"))
        let post = HTTPRequest(
            method: .post, baseEndpoint: other.baseURL.absoluteString, path: "/second", body: .text("once"))
        let error = await failure(of: post, with: client)
        #expect(error.flatMap(failureKind) == .connectionLost)
        #expect(try await other.takeRecordedRequests().filter { $0.method == .post }.count == 1)
    }
}
