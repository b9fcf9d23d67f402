import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("URLSessionHTTPClient downloads to files", .timeLimit(.minutes(1)))
    struct URLSessionDownloadTests {
        static let size = 5 * 1024 * 1024 + 77

        @Test(
            "a several-MiB download is byte-exact in the file, with progress ending at the total",
            arguments: [false, true])
        func download(chunked: Bool) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: Self.size)
            let response = MockResponse().withBody(body)
            server.enqueue(chunked ? response.chunked(chunkSize: 64 * 1024) : response)
            let destination = folder.file("body.bin")
            let log = ProgressLog()

            let received = try await TransportTest.client(.urlSession, server)
                .download("/file", to: .file(destination), progress: log.record).get()

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

        @Test("missing folders are created on request, and otherwise fail before anything is sent")
        func intermediateDirectories() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("hello"))
            let apiClient = TransportTest.client(.urlSession, server)
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

        @Test("an existing file is kept and reported unless replacing is asked for")
        func existingFile() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("new"))
            let existing = try writeFile(Data("old".utf8), named: "f.txt", in: folder)
            let apiClient = TransportTest.client(.urlSession, server)

            let refused = await apiClient.download("/file", to: .file(existing))
            #expect(refused.destinationErrorKind == .fileExists)
            #expect(server.requestCount == 0)
            #expect(try String(contentsOf: existing, encoding: .utf8) == "old")

            _ = try await apiClient.download("/file", to: .file(existing, options: [.replaceExistingFile])).get()
            #expect(try String(contentsOf: existing, encoding: .utf8) == "new")
            #expect(try folder.contents() == ["f.txt"])
        }

        @Test("a folder destination uses the response's suggested name, never leaving the folder")
        func folderDestination() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody("payload")
                    .withHeader("Content-Disposition", "attachment; filename*=UTF-8''..%2F..%2Fescaped.txt"))
            let target = folder.url.appendingPathComponent("inbox", isDirectory: true)

            let response = try await TransportTest.client(.urlSession, server)
                .download("/dl", to: .directory(target, options: [.createIntermediateDirectories])).get()

            let expected = target.appendingPathComponent("escaped.txt")
            #expect(response.bodyFileURL?.standardizedFileURL == expected.standardizedFileURL)
            #expect(try String(contentsOf: expected, encoding: .utf8) == "payload")
            #expect(try folder.contents() == ["inbox"])
        }

        @Test("cancelling mid-download ends cancelled and leaves no partial file")
        func cancellation() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 4 * 1024 * 1024))
                    .throttled(bytes: 32 * 1024, per: .milliseconds(50)))
            let apiClient = TransportTest.client(.urlSession, server)
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

        @Test("a connection lost mid-body leaves no partial file")
        func disconnectDuringBody() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 2 * 1024 * 1024))
                    .withSocketPolicy(.disconnectDuringBody))

            let result = await TransportTest.client(.urlSession, server).download(
                "/file", to: .file(folder.file("cut.bin")))

            #expect(TransportTest.networkFailureKind(result) == .connectionLost)
            #expect(try folder.contents().isEmpty)
        }

        @Test("a body past maxResponseBytes and a timed-out download leave no partial file")
        func limits() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(TransportTest.pattern(count: 1024 * 1024)).chunked(chunkSize: 8192))
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 1024 * 1024))
                    .throttled(bytes: 16 * 1024, per: .milliseconds(100)))
            let apiClient = TransportTest.client(.urlSession, server, .init(maxResponseBytes: 100_000))

            let tooLarge = await apiClient.download("/big", to: .file(folder.file("big.bin")))
            #expect(TransportTest.networkFailureKind(tooLarge) == .responseTooLarge)

            let request = apiClient.request(.get, "/slow").withTimeout(.milliseconds(400))
            let timedOut = await TransportTest.client(.urlSession, server).download(
                request, to: .file(folder.file("slow.bin")))
            #expect(timedOut.isTimeout)
            #expect(try folder.contents().isEmpty)
        }

        @Test("a rejected status removes the file and keeps the error body in memory, unless asked to keep it")
        func rejectedResponse() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 404).withJSONBody(#"{"error":"missing"}"#))
            server.enqueue(MockResponse(statusCode: 404).withJSONBody(#"{"error":"missing"}"#))
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(),
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

        @Test("a retried download keeps only the final attempt's body")
        func retry() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 503).withBody("busy"))
            server.enqueue(MockResponse().withBody("finally"))
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(),
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
