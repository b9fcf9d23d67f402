import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports upload from memory and from files, with progress", .timeLimit(.minutes(1)))
    struct TransportUploadTests {
        static let size = 6 * 1024 * 1024 + 123

        @Test(
            "a several-MiB Data upload arrives byte-exact, with monotonic progress ending at the total",
            arguments: TransportUnderTest.allCases)
        func dataUpload(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 201))
            let body = TransportTest.pattern(count: Self.size)
            let log = Recorder<TransferProgress>()

            let apiClient = TransportTest.client(transport, server)
            let upload = apiClient.request(.post, "/upload", body: .data(body, contentType: "application/octet-stream"))
            let response = try await apiClient.send(upload, progress: log.append).get()

            #expect(response.statusCode == 201)
            let recorded = try await server.takeRequest()
            #expect(recorded.body == body)
            log.expectMonotonic(.upload, endingAt: Int64(Self.size))
        }

        @Test(
            "a several-MiB file upload streams from the file and arrives byte-exact, with Content-Length",
            arguments: TransportUnderTest.allCases)
        func fileUpload(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 201))
            let body = TransportTest.pattern(count: Self.size)
            let file = try writeFile(body, named: "upload.bin", in: folder)
            let log = Recorder<TransferProgress>()

            let response = try await TransportTest.client(transport, server)
                .upload(
                    "/upload", method: .put, fromFile: file, contentType: "application/octet-stream",
                    progress: log.append
                ).get()

            #expect(response.statusCode == 201)
            let recorded = try await server.takeRequest()
            #expect(recorded.method == "PUT")
            #expect(recorded.header("Content-Length") == String(Self.size))
            #expect(recorded.header("Content-Type") == "application/octet-stream")
            #expect(recorded.body == body)
            log.expectMonotonic(.upload, endingAt: Int64(Self.size))
        }

        @Test(
            "a file body larger than what bodyData() loads (16 MiB) still uploads",
            arguments: TransportUnderTest.allCases)
        func largeFileUpload(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer(configuration: .init(maxBodyBytes: 24 * 1024 * 1024))
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 204))
            let body = TransportTest.pattern(count: HTTPBody.maximumFileSizeLoadedInMemory + 1000)
            let file = try writeFile(body, named: "big.bin", in: folder)

            let response = try await TransportTest.client(transport, server).POST("/upload", body: .file(file)).get()

            #expect(response.statusCode == 204)
            #expect(try await server.takeRequest().body == body)
        }

        @Test(
            "a 307 and a 308 send the file body again, from the file", arguments: TransportUnderTest.allCases,
            [307, 308])
        func redirectResendsFile(transport: TransportUnderTest, status: Int) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: status).withHeader("Location", "/moved"))
            server.enqueue(MockResponse(statusCode: 201))
            let body = TransportTest.pattern(count: 512 * 1024)
            let file = try writeFile(body, named: "upload.bin", in: folder)

            let response = try await TransportTest.client(transport, server).POST("/upload", body: .file(file)).get()

            #expect(response.statusCode == 201)
            let first = try await server.takeRequest()
            let second = try await server.takeRequest()
            #expect(first.body == body)
            #expect(second.path == "/moved")
            #expect(second.method == "POST")
            #expect(second.body == body)
        }

        @Test(
            "a file upload that gets no answer times out, and one whose task is cancelled ends cancelled",
            arguments: TransportUnderTest.allCases)
        func timeoutAndCancellation(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let file = try writeFile(TransportTest.pattern(count: 64 * 1024), named: "upload.bin", in: folder)
            let apiClient = TransportTest.client(transport, server)

            let timedOut = await apiClient.send(
                apiClient.request(.post, "/slow", body: .file(file)).withTimeout(.milliseconds(300)))
            #expect(timedOut.isTimeout)

            let task = Task { await apiClient.POST("/slow", body: .file(file)) }
            _ = try await server.takeRequest()
            _ = try await server.takeRequest()
            task.cancel()
            #expect(await awaitingCancellably(task).isCancelled)
        }
    }
}
