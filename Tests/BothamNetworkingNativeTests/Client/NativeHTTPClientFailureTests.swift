import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("NativeHTTPClient failures, timeouts and cancellation", .timeLimit(.minutes(1)))
struct NativeHTTPClientFailureTests {
    @Test("A 0.3 s idle timeout fires after 0.25 s, not truncated to whole seconds, as APIClientError.timeout")
    func idleTimeout() async throws {
        let server = try makeServer { _ in .hang }
        defer { server.shutdown() }
        let client = makeClient()
        let start = ContinuousClock.now
        let error = await failure(of: get(server).withTimeout(.milliseconds(300)), with: client)
        let elapsed = seconds(since: start)
        guard case .timeout = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        // The upper bound leaves room for a loaded 2-core machine (other suites run in parallel, and the scheduling
        // delay measured meanwhile is added); the lower bound proves the timer is not truncated to whole seconds.
        #expect(elapsed >= 0.25 && elapsed < TestTimeScale.scaled(seconds: 5, since: start), "took \(elapsed) s")
    }

    @Test("maxAttemptTimeout ends a call whose server keeps it waiting")
    func maxAttemptTimeout() async throws {
        let server = try makeServer { _ in .hang }
        defer { server.shutdown() }
        let client = makeClient { $0.limits.maxAttemptTimeout = .milliseconds(200) }
        let start = ContinuousClock.now
        let error = await failure(of: get(server), with: client)
        guard case .timeout = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(
            seconds(since: start) < TestTimeScale.scaled(seconds: 5, since: start), "the 0.2 s deadline must end it")
    }

    @Test("Cancelling the calling task closes the connection promptly and ends with .cancelled")
    func cancellation() async throws {
        let (server, arrivals) = try hangingServer()
        defer { server.shutdown() }
        let client = makeClient()
        let task = Task { await failure(of: get(server), with: client) }
        var iterator = arrivals.makeAsyncIterator()
        await iterator.next()
        let start = ContinuousClock.now
        task.cancel()
        let error = await awaitingCancellably(task)
        guard case .cancelled = error else {
            Issue.record("expected .cancelled, got \(String(describing: error))")
            return
        }
        #expect(seconds(since: start) < TestTimeScale.scaled(seconds: 2.0, since: start), "no waiting for the server")
    }

    @Test("A task cancelled before sending ends with .cancelled and sends nothing")
    func cancelledBeforeSending() async throws {
        let server = try makeServer { _ in MockResponse() }
        defer { server.shutdown() }
        let client = makeClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await failure(of: get(server), with: client)
        }
        guard case .cancelled = await awaitingCancellably(task) else {
            Issue.record("expected .cancelled")
            return
        }
        #expect(server.requestCount == 0)
    }

    @Test("A port nobody listens on fails with cannotConnect")
    func connectionRefused() async throws {
        let refused = try BoundSocket(.ipv4)  // bound, not listening (and held: nobody else takes the port)
        let request = HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:\(refused.address.port)")
        let error = await failure(of: request, with: makeClient())
        withExtendedLifetime(refused) {}
        #expect(error.flatMap(failureKind) == .cannotConnect)
    }

    @Test("An unknown host fails with cannotFindHost")
    func unknownHost() async {
        let request = HTTPRequest(method: .get, baseEndpoint: "http://does-not-exist.invalid")
        let error = await failure(of: request, with: makeClient())
        #expect(error.flatMap(failureKind) == .cannotFindHost)
    }

    @Test(
        "Malformed responses fail with badServerResponse",
        arguments: [
            "garbage\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\n\r\n",
            "HTTP/2 200\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n",
            "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        ]
    )
    func malformed(_ wire: String) async throws {
        let server = try makeServer { _ in .raw(wire, close: true) }
        defer { server.shutdown() }
        let error = await failure(of: get(server), with: makeClient())
        #expect(error.flatMap(failureKind) == .badServerResponse, "\(String(describing: error))")
    }

    @Test("A response cut short fails with connectionLost")
    func truncated() async throws {
        let server = try makeServer { _ in
            .raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a bit", close: true)
        }
        defer { server.shutdown() }
        let error = await failure(of: get(server), with: makeClient())
        #expect(error.flatMap(failureKind) == .connectionLost)
    }

    @Test("Bodies and heads above the limits fail with responseTooLarge")
    func sizeLimits() async throws {
        let big = Data(repeating: 65, count: 5000)
        let server = try makeServer { request in
            switch request.target {
            case "/length": return MockResponse(body: big)
            case "/chunked":
                let chunk = "3e8\r\n" + String(repeating: "a", count: 1000) + "\r\n"
                let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: chunk, count: 5)
                return .raw(wire + "0\r\n\r\n", close: false)
            case "/close": return .raw(Data("HTTP/1.1 200 OK\r\n\r\n".utf8) + big, close: true)
            default:
                let header = "X-Big: " + String(repeating: "h", count: 3000) + "\r\n"
                return .raw("HTTP/1.1 200 OK\r\n" + header + "\r\n", close: true)
            }
        }
        defer { server.shutdown() }
        let client = makeClient {
            $0.limits.maxResponseBytes = 1000
            $0.maxHeaderBytes = 2048
        }
        for path in ["/length", "/chunked", "/close", "/head"] {
            let error = await failure(of: get(server, path), with: client)
            #expect(error.flatMap(failureKind) == .responseTooLarge, "\(path): \(String(describing: error))")
        }
    }

    @Test("An unsupported scheme is rejected before connecting")
    func unsupportedScheme() async {
        let error = await failure(of: HTTPRequest(method: .get, baseEndpoint: "ftp://127.0.0.1/"), with: makeClient())
        guard case .unsupportedURLScheme = error else {
            Issue.record("expected unsupportedURLScheme, got \(String(describing: error))")
            return
        }
    }
}
