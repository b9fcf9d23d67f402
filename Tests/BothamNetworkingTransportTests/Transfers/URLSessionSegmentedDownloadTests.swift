import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Serves one body the way a static file server does: `Range` requests answered `206` with `Content-Range`, `If-Range`
/// honoured against the current `ETag`, and the body replaceable mid-test.
private final class RangeServingBody: Sendable {
    private struct Current {
        var body: Data
        var etag: String?
        var lastModified: String?
        var acceptsRanges = true
    }

    private let current: Lock<Current>

    init(_ body: Data, etag: String? = "\"v1\"", lastModified: String? = nil) {
        current = Lock(Current(body: body, etag: etag, lastModified: lastModified))
    }

    func replace(with body: Data, etag: String) {
        current.withLock {
            $0.body = body
            $0.etag = etag
        }
    }

    func stopServingRanges() {
        current.withLock { $0.acceptsRanges = false }
    }

    func respond(to request: RecordedRequest) -> MockResponse {
        let now = current.withLock { $0 }
        var response = MockResponse()
        if let etag = now.etag { response = response.withHeader("ETag", etag) }
        if let lastModified = now.lastModified { response = response.withHeader("Last-Modified", lastModified) }
        guard now.acceptsRanges, let range = request.header("Range"), let bounds = Self.bounds(range) else {
            return response.withBody(now.body)
        }
        if let ifRange = request.header("If-Range"), ifRange != now.etag, ifRange != now.lastModified {
            return response.withBody(now.body)
        }
        guard bounds.first < now.body.count else {
            return response.withStatus(416).withHeader("Content-Range", "bytes */\(now.body.count)")
        }
        let last = min(bounds.last, now.body.count - 1)
        return response.withStatus(206)
            .withHeader("Accept-Ranges", "bytes")
            .withHeader("Content-Range", "bytes \(bounds.first)-\(last)/\(now.body.count)")
            .withBody(now.body.subdata(in: bounds.first..<(last + 1)))
    }

    private static func bounds(_ range: String) -> (first: Int, last: Int)? {
        guard range.hasPrefix("bytes=") else { return nil }
        let parts = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]) else { return nil }
        return (first, Int(parts[1]) ?? Int.max)
    }
}

extension TransportIntegrationTests {
    @Suite("URLSessionHTTPClient fetches large file bodies in byte ranges", .timeLimit(.minutes(1)))
    struct URLSessionSegmentedDownloadTests {
        static let segment: Int64 = 64 * 1024

        private static func client(_ server: MockWebServer, segmentBytes: Int64? = segment) -> BothamAPIClient {
            BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(configuration: .init(downloadSegmentBytes: segmentBytes)),
                configuration: .init(maxRetries: 0, validation: .acceptAll)
            )
        }

        private static func takeRequests(_ count: Int, from server: MockWebServer) async throws -> [RecordedRequest] {
            var requests: [RecordedRequest] = []
            for _ in 0..<count { requests.append(try await server.takeRequest()) }
            return requests
        }

        @Test("a body of several segments is byte-exact, presented as the one 200 the server would have sent")
        func segmented() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: 4 * Int(Self.segment) + 1234)
            let source = RangeServingBody(body)
            server.setDispatcher(source.respond)
            let destination = folder.file("big.bin")
            let log = Recorder<TransferProgress>()

            let response = try await Self.client(server)
                .download("/big.bin", to: .file(destination), progress: log.append).get()

            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Length"] == String(body.count))
            #expect(response.headers["Content-Range"] == nil)
            #expect(response.headers["ETag"] == "\"v1\"")
            #expect(try Data(contentsOf: destination) == body)
            log.expectMonotonic(.download, endingAt: Int64(body.count))
            #expect(log.reports(.download).allSatisfy { $0.totalBytes == Int64(body.count) })
            let requests = try await Self.takeRequests(5, from: server)
            #expect(
                requests.map { $0.header("Range") } == [
                    "bytes=0-65535", "bytes=65536-131071", "bytes=131072-196607", "bytes=196608-262143",
                    "bytes=262144-263377",
                ])
            #expect(requests.map { $0.header("If-Range") } == [nil, "\"v1\"", "\"v1\"", "\"v1\"", "\"v1\""])
            #expect(server.requestCount == 5)
        }

        @Test("a body that fits in one segment, or a server without ranges, takes one request")
        func oneRequest() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let small = RangeServingBody(Data("small body".utf8))
            server.setDispatcher(small.respond)

            let fits = try await Self.client(server).download("/small", to: .file(folder.file("small.txt"))).get()
            #expect(fits.statusCode == 200)
            #expect(fits.headers["Content-Length"] == "10")
            #expect(try String(contentsOf: folder.file("small.txt"), encoding: .utf8) == "small body")

            let big = TransportTest.pattern(count: 3 * Int(Self.segment))
            let noRanges = RangeServingBody(big)
            noRanges.stopServingRanges()
            server.setDispatcher(noRanges.respond)
            let whole = try await Self.client(server).download("/big", to: .file(folder.file("big.bin"))).get()
            #expect(whole.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("big.bin")) == big)
            #expect(server.requestCount == 2)
        }

        @Test("a body that changes between segments ends with connectionLost and leaves no file")
        func changedBetweenSegments() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let source = RangeServingBody(TransportTest.pattern(count: 3 * Int(Self.segment)))
            server.setDispatcher { request in
                let response = source.respond(to: request)
                // The file is replaced right after its first segment went out.
                source.replace(with: Data(repeating: 7, count: 5 * Int(Self.segment)), etag: "\"v2\"")
                return response
            }

            let result = await Self.client(server).download("/big", to: .file(folder.file("big.bin")))

            #expect(TransportTest.networkFailureKind(result) == .connectionLost)
            #expect(try folder.contents().isEmpty)
            #expect(server.requestCount == 2)
        }

        @Test("a partial 206 without a validator, and a 416, are fetched again without Range")
        func fetchedAgainWithoutRange() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: 2 * Int(Self.segment))
            server.setDispatcher(RangeServingBody(body, etag: nil).respond)

            let unvalidated = try await Self.client(server).download("/a", to: .file(folder.file("a.bin"))).get()
            #expect(unvalidated.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("a.bin")) == body)
            let first = try await Self.takeRequests(2, from: server)
            #expect(first.map { $0.header("Range") } == ["bytes=0-65535", nil])

            server.setDispatcher(RangeServingBody(Data()).respond)
            let empty = try await Self.client(server).download("/empty", to: .file(folder.file("empty.bin"))).get()
            #expect(empty.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("empty.bin")).isEmpty)
            let second = try await Self.takeRequests(2, from: server)
            #expect(second.map { $0.header("Range") } == ["bytes=0-65535", nil])
        }

        @Test("the caller's own Range, a body kept in memory, or segments turned off send the request unchanged")
        func unchanged() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: 3 * Int(Self.segment))
            server.setDispatcher(RangeServingBody(body).respond)
            let apiClient = Self.client(server)

            let ownRange = try await apiClient.download(
                apiClient.request(.get, "/f", headers: ["Range": "bytes=10-19"]), to: .file(folder.file("part.bin"))
            ).get()
            #expect(ownRange.statusCode == 206)
            #expect(try Data(contentsOf: folder.file("part.bin")) == body.subdata(in: 10..<20))

            let inMemory = try await apiClient.GET("/f").get()
            #expect(inMemory.body == body)

            let off = try await Self.client(server, segmentBytes: nil).download("/f", to: .file(folder.file("off.bin")))
                .get()
            #expect(off.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("off.bin")) == body)

            let requests = try await Self.takeRequests(3, from: server)
            #expect(requests.map { $0.header("Range") } == ["bytes=10-19", nil, nil])
        }
    }
}
