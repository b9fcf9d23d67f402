import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// `NativeHTTPClient` speaking HTTP/2 with prior knowledge (h2c) to nginx and hypercorn, started by
/// `scripts/h2-servers.sh` (`.ci/run` does): the same calls as over HTTP/1.1, on streams of one shared connection.
@Suite("NativeHTTPClient over HTTP/2 (h2c with prior knowledge, nginx and hypercorn)", .timeLimit(.minutes(1)))
struct NativeHTTP2ClientTests {
    private static func client(_ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }) -> NativeHTTPClient
    {
        var configuration = NativeHTTPClient.Configuration()
        configuration.httpVersion = .http2PriorKnowledge
        change(&configuration)
        return NativeHTTPClient(configuration: configuration)
    }

    private static func url(_ address: String?, _ path: String) throws -> URL {
        let address = try #require(address)
        return try #require(URL(string: "http://\(address)\(path)"))
    }

    @Test("A GET comes back whole over HTTP/2, and the response says so", H2CServers.needsNginx)
    func getOverHTTP2() async throws {
        let client = Self.client()
        let response = try await client.send(
            HTTPRequest(method: .get, url: try Self.url(H2CServers.nginx, "/small.txt")))

        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello from nginx over h2c\n".utf8))
        #expect(response.headers[HTTPFieldName.contentLength] == "26")
        #expect(response.protocolVersion == HTTPResponse.ProtocolVersion.http2)
        #expect(response.timings?.reusedConnection == false)
    }

    @Test("Sequential calls share the one HTTP/2 connection", H2CServers.needsNginx)
    func sequentialCallsShareTheConnection() async throws {
        let client = Self.client()
        let url = try Self.url(H2CServers.nginx, "/small.txt")
        for _ in 0..<5 {
            let response = try await client.send(HTTPRequest(method: .get, url: url))
            #expect(response.statusCode == 200)
        }
        let last = try await client.send(HTTPRequest(method: .get, url: url))

        #expect(last.timings?.reusedConnection == true)
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test(
        "Sequential calls are not held 40 ms each by delayed ACKs: nginx writes HEADERS and DATA apart, with Nagle on",
        H2CServers.needsNginx)
    func sequentialCallsAreNotHeldByDelayedACKs() async throws {
        let client = Self.client()
        let url = try Self.url(H2CServers.nginx, "/small.txt")
        #expect(try await client.send(HTTPRequest(method: .get, url: url)).statusCode == 200)
        let start = ContinuousClock.now
        for _ in 0..<50 {
            #expect(try await client.send(HTTPRequest(method: .get, url: url)).statusCode == 200)
        }
        let elapsed = ContinuousClock.now - start
        // About 40 ms a call when the ACK of HEADERS waits for the kernel's delayed-ACK timer: 2 s or more.
        #expect(elapsed < TestTimeScale.scaled(.seconds(1), since: start), "50 calls took \(elapsed)")
    }

    @Test(
        "A thousand concurrent calls go over one connection, each answered with its own body",
        H2CServers.needsHypercorn)
    func concurrentCallsAreMultiplexed() async throws {
        let client = Self.client()
        let address = H2CServers.hypercorn
        let results = try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
            for index in 0..<1000 {
                let url = try Self.url(address, "/bytes/\(100 + index * 7)")
                group.addTask { (index, try await client.send(HTTPRequest(method: .get, url: url))) }
            }
            var results: [Int: HTTPResponse] = [:]
            for try await (index, response) in group { results[index] = response }
            return results
        }

        // hypercorn takes 100 streams at a time: the rest wait for one in the pool, not for a new connection.
        #expect(results.count == 1000)
        for (index, response) in results {
            #expect(response.statusCode == 200)
            #expect(response.body == Data(H2CServers.pattern(100 + index * 7)))
            #expect(response.protocolVersion == HTTPResponse.ProtocolVersion.http2)
        }
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test(
        "With two connections allowed, streams beyond the server's 100 open a second connection",
        H2CServers.needsHypercorn)
    func secondConnectionWhenConfigured() async throws {
        // 150 streams held open at once (/stall answers its head, then nothing for 30 s), whatever the machine's
        // speed: hypercorn takes 100 per connection, so the other 50 need the second connection the option allows.
        let client = Self.client { $0.http2.maxConnectionsPerOrigin = 2 }
        let api = BothamAPIClient(baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", httpClient: client)
        let held = try await withThrowingTaskGroup(of: HTTPStreamedResponse.self) { group in
            for _ in 0..<150 {
                group.addTask { try await api.stream(.get, "/stall", callTimeout: TestTimeScale.scaled(.seconds(20))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let opened = await client.openedConnectionCount()
        for streamed in held { streamed.body.cancel() }

        #expect(held.count == 150)
        #expect(opened == 2)
    }

    @Test(
        "Streamed bodies nobody reads hold back their own streams, not the connection: another call still gets through",
        H2CServers.needsHypercorn)
    func pausedStreamsDoNotBlockTheConnection() async throws {
        // Five unread 3 MB bodies fill their 1 MiB stream windows: 5 MiB, more than the connection's 4 MiB window.
        // Were the connection's window held back with them, the last call would wait for its attempt limit.
        let client = Self.client { $0.limits.attemptTimeout = TestTimeScale.scaled(.seconds(5)) }
        let api = BothamAPIClient(baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", httpClient: client)
        var unread: [HTTPStreamedResponse] = []
        for _ in 0..<5 {
            let streamed = try await api.stream(.get, "/bytes/3000000")
            var iterator = streamed.body.makeAsyncIterator()
            _ = try await iterator.next()
            unread.append(streamed)
        }
        let after = try await client.send(
            HTTPRequest(method: .get, url: try Self.url(H2CServers.hypercorn, "/bytes/100000")))
        for streamed in unread { streamed.body.cancel() }

        #expect(after.body == Data(H2CServers.pattern(100_000)))
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test("A 4 MiB download arrives whole through the flow-control windows", H2CServers.needsNginx)
    func largeDownload() async throws {
        let client = Self.client()
        let response = try await client.send(HTTPRequest(method: .get, url: try Self.url(H2CServers.nginx, "/big.bin")))

        #expect(response.body == Data(try H2CServers.file("big.bin")))
    }

    @Test("A 1 MiB POST body goes out within the server's windows and is echoed back", H2CServers.needsHypercorn)
    func uploadIsEchoed() async throws {
        let client = Self.client()
        let body = Data(H2CServers.pattern(1 << 20))
        let request = HTTPRequest(
            method: .post, url: try Self.url(H2CServers.hypercorn, "/echo"), body: .data(body))
        let response = try await client.send(request)

        #expect(response.statusCode == 200)
        #expect(response.headers["x-received-length"] == String(1 << 20))
        #expect(response.body == body)
    }

    @Test("A file body is streamed from disk over HTTP/2", H2CServers.needsHypercorn)
    func fileUpload() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("h2-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let body = Data(H2CServers.pattern(700_000))
        try body.write(to: file)
        let client = Self.client()
        let request = HTTPRequest(
            method: .post, url: try Self.url(H2CServers.hypercorn, "/echo"), body: .file(file))
        let response = try await client.send(request)

        #expect(response.headers["x-received-length"] == "700000")
        #expect(response.body == body)
    }

    @Test(
        "A streamed request body of unknown length goes as DATA frames and ends the stream", H2CServers.needsHypercorn)
    func streamedUpload() async throws {
        let chunks = (0..<8).map { Data(repeating: UInt8($0), count: 50_000) }
        let sequence = AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let client = Self.client()
        let request = HTTPRequest(
            method: .post, url: try Self.url(H2CServers.hypercorn, "/echo"), body: .stream(sequence))
        let response = try await client.send(request)

        #expect(response.headers["x-received-length"] == "400000")
        #expect(response.body == chunks.reduce(Data(), +))
    }

    @Test("A streamed response body arrives chunk by chunk over its stream", H2CServers.needsHypercorn)
    func streamedDownload() async throws {
        let client = Self.client()
        let api = BothamAPIClient(baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", httpClient: client)
        let streamed = try await api.stream(.get, "/bytes/300000")
        var received = Data()
        for try await chunk in streamed.body { received.append(chunk) }

        #expect(streamed.head.protocolVersion == HTTPResponse.ProtocolVersion.http2)
        #expect(received == Data(H2CServers.pattern(300_000)))
    }

    @Test("A HEAD response has no body over HTTP/2", H2CServers.needsNginx)
    func headHasNoBody() async throws {
        let client = Self.client()
        let response = try await client.send(
            HTTPRequest(method: .head, url: try Self.url(H2CServers.nginx, "/small.txt")))

        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers[HTTPFieldName.contentLength] == "26")
    }

    @Test(
        "After GOAWAY the refused streams are sent again on a new connection, POSTs included",
        H2CServers.needsNginx)
    func goAwayRefusedStreamsAreRetried() async throws {
        // This nginx server sends GOAWAY after 3 requests on a connection: of 12 concurrent calls, those above its
        // last stream were never processed and must go again on another connection.
        let client = Self.client()
        let url = try Self.url(H2CServers.nginxGoAway, "/small.txt")
        let statuses = try await withThrowingTaskGroup(of: (HTTPMethod, Int).self) { group in
            for index in 0..<12 {
                // Half of them POSTs, which nginx answers 405 for a file: answered, never lost or refused.
                let method: HTTPMethod = index.isMultiple(of: 2) ? .get : .post
                let request = HTTPRequest(method: method, url: url, body: method == .post ? .data(Data("x".utf8)) : nil)
                group.addTask { (method, try await client.send(request).statusCode) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses.filter { $0.0 == .get }.map(\.1) == Array(repeating: 200, count: 6))
        #expect(statuses.filter { $0.0 == .post }.map(\.1) == Array(repeating: 405, count: 6))
        #expect(await client.openedConnectionCount() >= 4)
    }

    @Test(
        "Leaving a streamed body early resets its stream: 150 abandoned streams do not use up the server's 100",
        H2CServers.needsHypercorn)
    func leavingAStreamResetsIt() async throws {
        // hypercorn allows 100 concurrent streams: were an abandoned stream not reset, it would stay open on both
        // sides and the calls after the 100th would wait for a stream forever (the call timeout ends them).
        let client = Self.client()
        let api = BothamAPIClient(baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", httpClient: client)
        for _ in 0..<150 {
            // /stall sends 1000 octets and then nothing for 30 s: only a reset ends its stream early.
            let streamed = try await api.stream(.get, "/stall", callTimeout: TestTimeScale.scaled(.seconds(5)))
            var iterator = streamed.body.makeAsyncIterator()
            _ = try await iterator.next()
            streamed.body.cancel()
        }
        let after = try await client.send(
            HTTPRequest(method: .get, url: try Self.url(H2CServers.hypercorn, "/bytes/10")))

        #expect(after.body == Data(H2CServers.pattern(10)))
        #expect(after.timings?.reusedConnection == true)
        #expect(await client.openedConnectionCount() == 1)
    }
}

/// The guarantees HTTP/1.1 calls have, over HTTP/2 streams: timeouts, redirects, decoding, limits.
@Suite("NativeHTTPClient over HTTP/2 keeps its guarantees (hypercorn, h2c)", .timeLimit(.minutes(1)))
struct NativeHTTP2GuaranteesTests {
    private static func client(_ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }) -> NativeHTTPClient
    {
        makeClient {
            $0.httpVersion = .http2PriorKnowledge
            change(&$0)
        }
    }

    private static func request(_ path: String) throws -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", path: path)
    }

    @Test(
        "A stream that stops sending times out on its own idle timeout; the connection serves the next call",
        H2CServers.needsHypercorn)
    func idleTimeoutEndsTheStreamNotTheConnection() async throws {
        let client = Self.client { $0.limits.idleTimeout = .milliseconds(300) }
        let error = await failure(of: try Self.request("/stall"), with: client)
        let next = try await client.send(try Self.request("/bytes/10"))

        guard case .timeout? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(next.body == Data(H2CServers.pattern(10)))
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test("A redirect is followed over HTTP/2", H2CServers.needsHypercorn)
    func redirectIsFollowed() async throws {
        let response = try await Self.client().send(try Self.request("/redirect"))

        #expect(response.statusCode == 200)
        #expect(response.body == Data(H2CServers.pattern(10)))
        #expect(response.url?.path == "/bytes/10")
    }

    @Test("A gzip body is decoded over HTTP/2", H2CServers.needsHypercorn)
    func gzipIsDecoded() async throws {
        let response = try await Self.client().send(try Self.request("/gzip"))

        #expect(response.body == Data(String(repeating: "hello over h2, gzipped", count: 100).utf8))
    }

    @Test("The response size limit holds over HTTP/2", H2CServers.needsHypercorn)
    func sizeLimitHolds() async throws {
        let client = Self.client { $0.limits.maxResponseBytes = 10_000 }
        let error = await failure(of: try Self.request("/bytes/100000"), with: client)
        let next = try await client.send(try Self.request("/bytes/10"))

        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .responseTooLarge)
        #expect(next.statusCode == 200)
    }

    @Test("A response body with a file destination is written to its file over HTTP/2", H2CServers.needsHypercorn)
    func downloadToFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("h2-download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await Self.client().send(
            try Self.request("/bytes/700000").withResponseDestination(.file(file)))

        #expect(response.bodyFileURL == file)
        #expect(response.body.isEmpty)
        #expect(try Data(contentsOf: file) == Data(H2CServers.pattern(700_000)))
    }

    @Test("Upload and download progress reach their totals over HTTP/2", H2CServers.needsHypercorn)
    func progressIsReported() async throws {
        let body = Data(H2CServers.pattern(500_000))
        let log = Recorder<TransferProgress>()
        let request = HTTPRequest(
            method: .post, baseEndpoint: "http://\(try #require(H2CServers.hypercorn))", path: "/echo",
            body: .data(body))
        let response = try await TransferProgress.Reporter.$current.withValue(TransferProgress.Reporter(log.append)) {
            try await Self.client().send(request)
        }
        let uploads = log.values.filter { $0.direction == .upload }
        let downloads = log.values.filter { $0.direction == .download }

        #expect(response.body == body)
        #expect(uploads.last == TransferProgress(direction: .upload, completedBytes: 500_000, totalBytes: 500_000))
        #expect(downloads.last == TransferProgress(direction: .download, completedBytes: 500_000, totalBytes: 500_000))
        #expect(downloads.count > 1, "the download is reported as it arrives, not only at its end")
    }
}
