import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports stream downloads to files, with progress", .timeLimit(.minutes(1)))
    struct TransportFileDownloadTests {
        static let size = 5 * 1024 * 1024 + 77

        @Test(
            "a redirected download (a 302 with a body of its own) leaves the final body in the file",
            arguments: TransportUnderTest.allCases)
        func redirectedDownload(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: Self.size)
            server.enqueue(
                MockResponse(statusCode: 302).withHeader("Location", "/releases/asset.bin").withBody("Found: elsewhere")
            )
            server.enqueue(MockResponse().withBody(body))
            let destination = folder.file("asset.bin")

            let received = try await TransportTest.client(transport, server)
                .download("/releases/latest", to: .file(destination)).get()

            #expect(received.statusCode == 200)
            #expect(received.bodyFileURL == destination)
            #expect(try Data(contentsOf: destination) == body)
            #expect(try folder.contents() == ["asset.bin"])
        }

        @Test(
            "a several-MiB download is byte-exact in the file, with progress ending at the total",
            arguments: TransportUnderTest.allCases, [false, true])
        func download(transport: TransportUnderTest, chunked: Bool) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: Self.size)
            let response = MockResponse().withBody(body)
            server.enqueue(chunked ? response.chunked(chunkSize: 64 * 1024) : response)
            let destination = folder.file("body.bin")
            let log = Recorder<TransferProgress>()

            let received = try await TransportTest.client(transport, server)
                .download("/file", to: .file(destination), progress: log.append).get()

            #expect(received.bodyFileURL == destination)
            #expect(received.body.isEmpty)
            #expect(received.request.responseDestination == .file(destination))
            #expect(try Data(contentsOf: destination) == body)
            #expect(try folder.contents() == ["body.bin"])
            log.expectMonotonic(.download, endingAt: Int64(Self.size))
            if !chunked {
                #expect(log.reports(.download).allSatisfy { $0.totalBytes == Int64(Self.size) })
            }
        }

        @Test(
            "missing folders are created on request, and otherwise fail before anything is sent",
            arguments: TransportUnderTest.allCases)
        func intermediateDirectories(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("hello"))
            let apiClient = TransportTest.client(transport, server)
            let nested = folder.url.appendingPathComponent("a/b/c.txt")

            let refused = await apiClient.download("/file", to: .file(nested))
            #expect(refused.destinationErrorKind == .directoryMissing)
            #expect(server.requestCount == 0)

            let created = try await apiClient.download(
                "/file", to: .file(nested, options: [.createIntermediateDirectories])
            ).get()
            #expect(created.bodyFileURL == nested)
            #expect(try String(contentsOf: nested, encoding: .utf8) == "hello")
        }

        @Test(
            "an existing file is kept and reported unless replacing is asked for",
            arguments: TransportUnderTest.allCases)
        func existingFile(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("new"))
            let existing = try writeFile(Data("old".utf8), named: "f.txt", in: folder)
            let apiClient = TransportTest.client(transport, server)

            let refused = await apiClient.download("/file", to: .file(existing))
            #expect(refused.destinationErrorKind == .fileExists)
            #expect(server.requestCount == 0)
            #expect(try String(contentsOf: existing, encoding: .utf8) == "old")

            _ = try await apiClient.download("/file", to: .file(existing, options: [.replaceExistingFile])).get()
            #expect(try String(contentsOf: existing, encoding: .utf8) == "new")
            #expect(try folder.contents() == ["f.txt"])
        }

        @Test(
            "a folder destination uses the response's suggested name, never leaving the folder",
            arguments: TransportUnderTest.allCases)
        func folderDestination(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody("payload")
                    .withHeader("Content-Disposition", "attachment; filename*=UTF-8''..%2F..%2Fescaped.txt"))
            let target = folder.url.appendingPathComponent("inbox", isDirectory: true)

            let response = try await TransportTest.client(transport, server)
                .download("/dl", to: .directory(target, options: [.createIntermediateDirectories])).get()

            let expected = target.appendingPathComponent("escaped.txt")
            #expect(response.bodyFileURL?.standardizedFileURL == expected.standardizedFileURL)
            #expect(try String(contentsOf: expected, encoding: .utf8) == "payload")
            #expect(try folder.contents() == ["inbox"])
        }

        @Test(
            "cancelling mid-download ends cancelled and leaves no partial file", arguments: TransportUnderTest.allCases)
        func cancellation(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 4 * 1024 * 1024))
                    .throttled(bytes: 32 * 1024, per: .milliseconds(50)))
            let apiClient = TransportTest.client(transport, server)
            let call = apiClient.startTransfer(
                apiClient.request(.get, "/slow").withResponseDestination(.file(folder.file("slow.bin"))))

            var reports = 0
            for await _ in call.progress {
                reports += 1
                call.cancel()
            }
            let result = await call.result

            #expect(reports >= 1)
            #expect(result.isCancelled)
            #expect(try folder.contents().isEmpty)
        }

        @Test("a connection lost mid-body leaves no partial file", arguments: TransportUnderTest.allCases)
        func disconnectDuringBody(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 2 * 1024 * 1024))
                    .withSocketPolicy(.disconnectDuringBody))

            let result = await TransportTest.client(transport, server).download(
                "/file", to: .file(folder.file("cut.bin")))

            #expect(TransportTest.networkFailureKind(result) == .connectionLost)
            #expect(try folder.contents().isEmpty)
        }

        @Test(
            "a body past maxFileResponseBytes and a timed-out download leave no partial file",
            arguments: TransportUnderTest.allCases)
        func limits(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(TransportTest.pattern(count: 1024 * 1024)).chunked(chunkSize: 8192))
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 1024 * 1024))
                    .throttled(bytes: 16 * 1024, per: .milliseconds(100)))
            let apiClient = TransportTest.client(transport, server, .init(maxFileResponseBytes: 100_000))

            let tooLarge = await apiClient.download("/big", to: .file(folder.file("big.bin")))
            #expect(TransportTest.networkFailureKind(tooLarge) == .responseTooLarge)

            let request = apiClient.request(.get, "/slow").withTimeout(.milliseconds(400))
            let timedOut = await TransportTest.client(transport, server).download(
                request, to: .file(folder.file("slow.bin")))
            #expect(timedOut.isTimeout)
            #expect(try folder.contents().isEmpty)
        }

        @Test(
            "a body past maxFileResponseBytes fails as too large and leaves no file",
            arguments: TransportUnderTest.allCases)
        func fileLimit(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(TransportTest.pattern(count: 300_000)).chunked(chunkSize: 8192))
            let limits = TransportLimits(maxResponseBytes: 1024, maxFileResponseBytes: 200_000)
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: transport.make(limits),
                configuration: .init(maxRetries: 0)
            )

            let result = await apiClient.download("/f", to: .file(folder.file("big.bin")))

            #expect(TransportTest.networkFailureKind(result) == .responseTooLarge)
            #expect(try folder.contents().isEmpty)
        }

        @Test(
            "a rejected status removes the file and keeps the error body in memory, unless asked to keep it",
            arguments: TransportUnderTest.allCases)
        func rejectedResponse(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 404).withJSONBody(#"{"error":"missing"}"#))
            server.enqueue(MockResponse(statusCode: 404).withJSONBody(#"{"error":"missing"}"#))
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: transport.make(),
                configuration: .init(maxRetries: 0)
            )
            let destination = folder.file("doc.json")

            let removed = await apiClient.download("/doc", to: .file(destination))
            #expect(removed.error?.statusCode == 404)
            #expect(removed.error?.response?.bodyFileURL == nil)
            #expect(removed.error?.response?.body == Data(#"{"error":"missing"}"#.utf8))
            #expect(try folder.contents().isEmpty)

            let kept = await apiClient.download("/doc", to: .file(destination, options: [.keepFileWhenRejected]))
            #expect(kept.error?.response?.bodyFileURL == destination)
            #expect(try Data(contentsOf: destination) == Data(#"{"error":"missing"}"#.utf8))
        }

        @Test("a retried download keeps only the final attempt's body", arguments: TransportUnderTest.allCases)
        func retry(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 503).withBody("busy"))
            server.enqueue(MockResponse().withBody("finally"))
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: transport.make(),
                configuration: .init(maxRetries: 1)
            )
            apiClient.responseInterceptors.append(RetryOn503())
            let destination = folder.file("final.txt")

            let response = try await apiClient.download("/flaky", to: .file(destination)).get()

            #expect(response.bodyFileURL == destination)
            #expect(try String(contentsOf: destination, encoding: .utf8) == "finally")
            #expect(try folder.contents() == ["final.txt"])
        }
    }
}

/// Retries a 503 once the body has been looked at, so the attempt's file must exist then.
private struct RetryOn503: BothamResponseInterceptor {
    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        guard response.statusCode == 503 else { return .proceed(response) }
        let file = try #require(response.bodyFileURL)
        #expect(try String(contentsOf: file, encoding: .utf8) == "busy")
        return .retry
    }
}

extension TransportIntegrationTests {
    @Suite("NativeHTTPClient writes file bodies as they arrive", .timeLimit(.minutes(1)))
    struct NativeFileBodyTests {
        @Test("a file download offers no coding, and a coded body that comes anyway is stored as sent")
        func codedBodyStoredAsSent() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let coded = Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03])
            server.enqueue(MockResponse().withHeader("Content-Encoding", "gzip").withBody(coded))
            let destination = folder.file("coded.gz")

            let response = try await TransportTest.client(.native, server).download("/f", to: .file(destination))
                .get()

            let request = try await server.takeRequest()
            #expect(request.header("Accept-Encoding") == nil)
            #expect(response.headers["Content-Encoding"] == "gzip")
            #expect(try Data(contentsOf: destination) == coded)
        }
    }
}
