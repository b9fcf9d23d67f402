import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: large bodies and keep-alive", .timeLimit(.minutes(1)))
    struct TransportLargeBodyTests {
        static let twentyMiB = 20 * 1024 * 1024

        @Test("a 20 MiB request body arrives intact", arguments: TransportUnderTest.allCases)
        func largeUpload(transport: TransportUnderTest) async throws {
            let server = try MockWebServer(configuration: .init(maxBodyBytes: 32 * 1024 * 1024))
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 201))
            let body = TransportTest.pattern(count: Self.twentyMiB)

            let response = try await TransportTest.client(transport, server)
                .POST("/upload", body: .data(body, contentType: "application/octet-stream")).get()

            #expect(response.statusCode == 201)
            let recorded = try await server.takeRequest()
            #expect(recorded.body.count == Self.twentyMiB)
            #expect(recorded.body == body)
        }

        @Test("a file body is uploaded with its size as Content-Length", arguments: TransportUnderTest.allCases)
        func fileUpload(transport: TransportUnderTest) async throws {
            try await uploadFile(bytes: 3 * 1024 * 1024 + 17, with: transport)
        }

        @Test(
            "a file body larger than the in-memory limit is streamed from disk", arguments: TransportUnderTest.allCases)
        func largeFileUpload(transport: TransportUnderTest) async throws {
            try await uploadFile(bytes: HTTPBody.maximumFileSizeLoadedInMemory + 4096, with: transport)
        }

        private func uploadFile(bytes: Int, with transport: TransportUnderTest) async throws {
            let server = try MockWebServer(configuration: .init(maxBodyBytes: 32 * 1024 * 1024))
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 201))
            let body = TransportTest.pattern(count: bytes)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
            try body.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            let response = try await TransportTest.client(transport, server)
                .PUT("/files/a", body: .file(file, contentType: "application/octet-stream")).get()

            #expect(response.statusCode == 201)
            let recorded = try await server.takeRequest()
            #expect(recorded.header("Content-Length") == "\(bytes)")
            #expect(recorded.header("Content-Type") == "application/octet-stream")
            #expect(recorded.body == body)
        }

        @Test(
            "a 20 MiB response body arrives intact, with Content-Length and chunked",
            arguments: TransportUnderTest.allCases, [false, true])
        func largeDownload(transport: TransportUnderTest, chunked: Bool) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: Self.twentyMiB)
            let response = MockResponse().withBody(body)
            server.enqueue(chunked ? response.chunked(chunkSize: 256 * 1024) : response)

            let received = try await TransportTest.client(transport, server).GET("/download").get()

            #expect(received.body.count == Self.twentyMiB)
            #expect(received.body == body)
        }

        @Test(
            "bodies of 256 KiB to 2 MiB with Content-Length arrive intact, in turn and at once",
            arguments: TransportUnderTest.allCases)
        func pooledSizeDownloads(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let sizes = [256 << 10, (1 << 20) + 7, (2 << 20) + 3, (256 << 10) + 1]
            let bodies = sizes.enumerated().map { index, size in
                Data(TransportTest.pattern(count: size + index).suffix(size))
            }
            server.enqueue(contentsOf: bodies.map { MockResponse().withBody($0) })
            let apiClient = TransportTest.client(transport, server)

            for body in bodies {
                let received = try await apiClient.GET("/download").get().body
                #expect(received.count == body.count)
                #expect(received == body)
            }

            server.enqueue(contentsOf: bodies.prefix(3).map { MockResponse().withBody($0) })
            let received = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<3 { group.addTask { try await apiClient.GET("/download").get().body } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(Set(received) == Set(bodies.prefix(3)))
        }

        @Test(
            "a body past maxResponseBytes ends with responseTooLarge", arguments: TransportUnderTest.allCases,
            [false, true])
        func maxResponseBytes(transport: TransportUnderTest, chunked: Bool) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let response = MockResponse().withBody(TransportTest.pattern(count: 4 * 1024 * 1024))
            server.enqueue(chunked ? response.chunked(chunkSize: 64 * 1024) : response)
            server.enqueue(MockResponse().withBody(TransportTest.pattern(count: 1000)))
            let apiClient = TransportTest.client(transport, server, .init(maxResponseBytes: 256 * 1024))

            let result = await apiClient.GET("/big")

            #expect(TransportTest.networkFailureKind(result) == .responseTooLarge)
            #expect(try await apiClient.GET("/small").get().body.count == 1000)
        }

        @Test("sequential requests reuse one keep-alive connection", arguments: TransportUnderTest.allCases)
        func keepAlive(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [MockResponse(), MockResponse(), MockResponse()])
            let apiClient = TransportTest.client(transport, server)

            for index in 0..<3 {
                _ = try await apiClient.GET("/r\(index)").get()
            }

            var recorded: [RecordedRequest] = []
            for _ in 0..<3 { recorded.append(try await server.takeRequest()) }
            #expect(recorded.map(\.sequenceNumber) == [0, 1, 2])
            #expect(Set(recorded.map(\.connectionIndex)).count == 1)
        }
    }
}

extension TransportIntegrationTests {
    @Suite("Both transports bound in-memory bodies by default", .timeLimit(.minutes(1)))
    struct TransportDefaultLimitTests {
        @Test(
            "with the default configuration a body over 64 MiB held in memory fails with responseTooLarge",
            arguments: TransportUnderTest.allCases)
        func defaultInMemoryLimit(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(Data(count: (64 << 20) + 1)))
            let client: any HTTPClient =
                transport.isNative ? transport.makeNative() : URLSessionHTTPClient()
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: client, configuration: .init(maxRetries: 0))

            let result = await apiClient.GET("/huge")

            #expect(TransportTest.networkFailureKind(result) == .responseTooLarge)
        }
    }
}
