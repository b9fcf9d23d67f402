import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports: a stream nobody reads holds up no other call", .timeLimit(.minutes(2)))
    struct TransportStreamIsolationTests {
        /// What one bounded call did: finished (with its result) or was still running when its bound ran out.
        enum Bounded: Sendable {
            case finished(Result<HTTPResponse, APIClientError>)
            case overran(String)
        }

        /// Runs `call`, giving up (and cancelling it) when `limit` runs out first.
        static func bounded(
            _ name: String, within limit: Duration,
            _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
        ) async -> Bounded {
            await withTaskGroup(of: Bounded?.self) { group in
                group.addTask { .finished(await call()) }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return Task.isCancelled ? nil : .overran(name)
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? .overran(name)
            }
        }

        /// A server whose `/stream` body is far larger than any socket buffer, so that a reader who stops leaves
        /// bytes unsent, and whose other paths answer at once.
        static func server() throws -> MockWebServer {
            let server = try MockWebServer()
            let stream = TransportTest.pattern(count: 24 << 20)
            let download = TransportTest.pattern(count: 512 << 10)
            server.setDispatcher { request in
                switch request.path {
                case "/stream": return MockResponse().withBody(stream)
                case "/download": return MockResponse().withBody(download)
                case "/upload": return MockResponse().withBody("stored \(request.body.count)")
                default: return MockResponse().withBody("ok")
                }
            }
            return server
        }

        @Test(
            "slow and abandoned stream readers hold up no GET, upload or download on the same client or another",
            arguments: TransportUnderTest.allCases)
        func slowReadersHoldNobody(transport: TransportUnderTest) async throws {
            let server = try Self.server()
            defer { server.shutdown() }
            let scratch = try ScratchFolder()
            defer { scratch.remove() }
            let uploadFile = scratch.file("upload.bin")
            try TransportTest.pattern(count: 1 << 20).write(to: uploadFile)
            let streaming = TransportTest.client(transport, server)
            let other = TransportTest.client(transport, server)
            let bound = TestTimeScale.scaled(.seconds(5))
            // Slow readers stay open until the end of the test: each read one chunk and then nothing.
            var slowReaders: [HTTPBodyStream.AsyncIterator] = []
            defer { _ = slowReaders }

            for round in 0..<3 {
                let slow = try await streaming.stream(.get, "/stream")
                var slowReader = slow.body.makeAsyncIterator()
                #expect(try await slowReader.next() != nil)
                slowReaders.append(slowReader)
                // An abandoned reader: one chunk, then the stream is dropped.
                do {
                    let abandoned = try await other.stream(.get, "/stream")
                    var reader = abandoned.body.makeAsyncIterator()
                    #expect(try await reader.next() != nil)
                }

                let outcomes = await withTaskGroup(of: Bounded.self) { group in
                    for (name, client) in [("same client", streaming), ("other client", other)] {
                        for index in 0..<4 {
                            group.addTask {
                                await Self.bounded("GET \(index) on the \(name)", within: bound) {
                                    await client.GET("/get")
                                }
                            }
                        }
                        group.addTask {
                            await Self.bounded("file upload on the \(name)", within: bound) {
                                await client.upload("/upload", fromFile: uploadFile)
                            }
                        }
                        let destination = scratch.file("download-\(round)-\(name.count).bin")
                        group.addTask {
                            await Self.bounded("file download on the \(name)", within: bound) {
                                await client.download(
                                    "/download", to: .file(destination, options: [.replaceExistingFile]))
                            }
                        }
                    }
                    var outcomes: [Bounded] = []
                    for await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }

                for outcome in outcomes {
                    switch outcome {
                    case .overran(let name):
                        Issue.record("round \(round): \(name) did not finish within \(bound) beside a slow reader")
                    case .finished(let result):
                        #expect(throws: Never.self) { try result.get() }
                        #expect((try? result.get().statusCode) == 200)
                    }
                }
            }
        }
        #if canImport(FoundationNetworking)
            /// URLSession on Linux cannot pause one transfer without stopping every other call of the process, so it
            /// lets a stream whose reader is behind run on while another call needs URLSession's thread; the bytes
            /// left unread are bounded by `maxResponseBytes`.
            @Test(
                "on Linux a URLSession stream left unread beside another call ends with responseTooLarge at the limit")
            func urlSessionUnreadLimit() async throws {
                let server = try MockWebServer()
                defer { server.shutdown() }
                let stream = TransportTest.pattern(count: 16 << 20)
                server.setDispatcher { request in
                    request.path == "/stream"
                        ? MockResponse().withBody(stream)
                        : MockResponse().withBody("late").withHeadersDelay(.seconds(3))
                }
                let limit = 2 << 20
                let apiClient = TransportTest.client(.urlSession, server, TransportLimits(maxResponseBytes: limit))
                let response = try await apiClient.stream(.get, "/stream")
                var reader = response.body.makeAsyncIterator()
                var received = try #require(try await reader.next()).count
                // Another call needs URLSession's thread for three seconds: the unread stream may not hold it.
                let other = Task { await apiClient.GET("/slow") }

                var failure: APIClientError?
                do {
                    // Read only once the other call has ended: the stream had to run on beside it.
                    let otherCall = await Self.bounded("the other call", within: TestTimeScale.scaled(.seconds(10))) {
                        await other.value
                    }
                    if case .overran(let name) = otherCall { Issue.record("\(name) did not finish beside the stream") }
                    while let chunk = try await reader.next() { received += chunk.count }
                } catch {
                    failure = error
                }
                guard case .networkError(let networkFailure) = failure else {
                    Issue.record(
                        "expected responseTooLarge, got \(String(describing: failure)) after \(received) bytes")
                    return
                }
                #expect(networkFailure.kind == .responseTooLarge)
                #expect(received < stream.count)
                #expect((try? await other.value.get().statusCode) == 200)
            }
            @Test("on Linux a URLSession stream alone in the process is held back, never failed by maxResponseBytes")
            func urlSessionAloneKeepsBackPressure() async throws {
                let server = try MockWebServer()
                defer { server.shutdown() }
                let stream = TransportTest.pattern(count: 4 << 20)
                server.enqueue(MockResponse().withBody(stream))
                let apiClient = TransportTest.client(.urlSession, server, TransportLimits(maxResponseBytes: 64 << 10))
                let response = try await apiClient.stream(.get, "/stream")
                var reader = response.body.makeAsyncIterator()
                var received = try #require(try await reader.next()).count
                // Nobody reads while the server sends what it can; nothing else needs URLSession's thread.
                _ = await TransportStreamingTests.bodyBytesWritten(
                    by: server, reaching: 1 << 20, within: TestTimeScale.scaled(.seconds(1)))
                while let chunk = try await reader.next() { received += chunk.count }
                #expect(received == stream.count)
            }
        #endif
    }
}
