import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: streamed response bodies", .timeLimit(.minutes(1)))
    struct TransportStreamingTests {
        /// `server.responseBodyBytesWritten` once it reaches `count`, or its value when `limit` has passed. The server
        /// counts a byte once `send` has returned, which can be after the client has read it: a count read the moment
        /// the bytes arrive may lag behind by the last write.
        static func bodyBytesWritten(
            by server: MockWebServer, reaching count: Int, within limit: Duration = .milliseconds(500)
        ) async -> Int {
            let deadline = ContinuousClock.now + limit
            while server.responseBodyBytesWritten < count, ContinuousClock.now < deadline { await Task.yield() }
            return server.responseBodyBytesWritten
        }

        @Test(
            "the head arrives before the body, and parts come in order as they are sent",
            arguments: TransportUnderTest.allCases)
        func headBeforeBody(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withHeader("Content-Type", "application/x-ndjson").streaming(
                    [.init(Data("one\n".utf8)), .init(Data("two\n".utf8), after: .seconds(1))]))
            let apiClient = TransportTest.client(transport, server)

            let (response, headDelay) = try await TransportTest.elapsed { try await apiClient.stream(.get, "/feed") }
            #expect(response.head.statusCode == 200)
            #expect(response.head.headers[.contentType] == "application/x-ndjson")
            // Well before the second part (1 s): the scheduling delay of a loaded machine is added, but may not carry
            // the bound to that second unless the time scale alone does (under ThreadSanitizer).
            let latest = max(
                TestTimeScale.scaled(.milliseconds(250)),
                min(TestTimeScale.scaled(.milliseconds(250), during: headDelay), .milliseconds(900)))
            #expect(headDelay < latest)
            var lines: [String] = []
            for try await line in response.lines { lines.append(line) }
            #expect(lines == ["one", "two"])
        }

        @Test(
            "Server-Sent Events split across chunks are parsed as they arrive", arguments: TransportUnderTest.allCases)
        func serverSentEvents(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                .serverSentEvents([
                    MockServerSentEvent(id: "1", event: "token", data: "Hel"),
                    MockServerSentEvent(id: "2", event: "token", data: "lo", after: .milliseconds(20)),
                    MockServerSentEvent(comment: "keep-alive"),
                    MockServerSentEvent(id: "3", event: "done", data: "line one\nline two", after: .milliseconds(20)),
                ]))
            let apiClient = TransportTest.client(transport, server)

            var events: [ServerSentEvent] = []
            for try await event in try await apiClient.stream(.get, "/chat").events { events.append(event) }

            #expect(
                events == [
                    ServerSentEvent(type: "token", data: "Hel", id: "1"),
                    ServerSentEvent(type: "token", data: "lo", id: "2"),
                    ServerSentEvent(type: "done", data: "line one\nline two", id: "3"),
                ])
        }

        @Test("a slow reader holds the server back; reading on gets every byte", arguments: TransportUnderTest.allCases)
        func backPressure(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let size = 32 << 20
            let body = TransportTest.pattern(count: size)
            server.enqueue(MockResponse().withBody(body))
            let apiClient = TransportTest.client(transport, server)

            let response = try await apiClient.stream(.get, "/big")
            var iterator = response.body.makeAsyncIterator()
            var received = try #require(try await iterator.next()).count
            // Give the server every chance to run ahead while nobody reads.
            let settle = ContinuousClock.now + .milliseconds(500)
            var written = server.responseBodyBytesWritten
            while ContinuousClock.now < settle {
                try await Task.sleep(for: .milliseconds(50))
                written = server.responseBodyBytesWritten
            }
            // Socket buffers on both ends plus the client's bounded buffers, far from the whole body.
            #expect(written < 16 << 20, "the server wrote \(written) bytes while nobody read")
            while let chunk = try await iterator.next() { received += chunk.count }
            #expect(received == size)
            #expect(await Self.bodyBytesWritten(by: server, reaching: size) >= size)
        }

        @Test(
            "leaving the loop early ends the request, and the next call works", arguments: TransportUnderTest.allCases)
        func earlyExit(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let parts = (0..<50).map { StubChunk(Data("event \($0)\n".utf8), after: .milliseconds(20)) }
            server.enqueue(MockResponse().streaming(parts))
            server.enqueue(MockResponse().withBody("next"))
            let apiClient = TransportTest.client(transport, server)

            var seen = 0
            for try await _ in try await apiClient.stream(.get, "/feed").lines {
                seen += 1
                if seen == 2 { break }
            }

            #expect(seen == 2)
            let next = try await apiClient.GET("/after").get()
            #expect(next.body == Data("next".utf8))
            let first = try await server.takeRequest()
            let second = try await server.takeRequest()
            if transport == .nativeHTTP2 {
                // Only the stream ended (RST_STREAM CANCEL): the connection carried the next call.
                #expect(second.connectionIndex == first.connectionIndex)
                #expect(second.sequenceNumber == 1)
            } else {
                // The half-read connection was not reused.
                #expect(second.sequenceNumber == 0)
            }
        }

        @Test(
            "cancelling the reading task ends the stream with cancelled at once", arguments: TransportUnderTest.allCases
        )
        func cancellation(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().streaming([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: .seconds(20))])
            )
            let apiClient = TransportTest.client(transport, server)

            let response = try await apiClient.stream(.get, "/feed")
            let reader = Task { () async -> Result<[String], APIClientError> in
                var lines: [String] = []
                do throws(APIClientError) {
                    for try await line in response.lines { lines.append(line) }
                } catch {
                    return .failure(error)
                }
                return .success(lines)
            }
            try await Task.sleep(for: .milliseconds(200))
            let (result, duration) = await TransportTest.elapsed { () async -> Result<[String], APIClientError> in
                reader.cancel()
                return await awaitingCancellably(reader)
            }

            guard case .failure(.cancelled) = result else {
                Issue.record("expected cancelled, got \(result)")
                return
            }
            #expect(duration < TestTimeScale.scaled(.seconds(1), during: duration))
        }

        @Test(
            "a sub-second idle timeout between chunks ends the stream with timeout",
            arguments: TransportUnderTest.allCases)
        func idleTimeout(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().streaming([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: .seconds(10))])
            )
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/feed").withTimeout(.milliseconds(500))
            let response = try await apiClient.stream(request)
            var lines: [String] = []
            let start = ContinuousClock.now
            do throws(APIClientError) {
                for try await line in response.lines { lines.append(line) }
                Issue.record("the stream ended without a timeout")
            } catch {
                guard case .timeout = error else {
                    Issue.record("expected timeout, got \(error)")
                    return
                }
            }
            #expect(lines == ["first"])
            #expect(ContinuousClock.now - start < TestTimeScale.scaled(.seconds(2), since: start))
        }

        @Test(
            "chunks every 300 ms keep a stream with a 500 ms idle timeout alive for longer than the timeout",
            arguments: TransportUnderTest.allCases)
        func longStreamOutlivesTimeout(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let parts = (0..<5).map { StubChunk(Data("tick \($0)\n".utf8), after: .milliseconds(300)) }
            server.enqueue(MockResponse().streaming(parts))
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/ticks").withTimeout(TestTimeScale.scaled(.milliseconds(500)))
            var lines: [String] = []
            for try await line in try await apiClient.stream(request).lines { lines.append(line) }

            #expect(lines.count == 5)
        }

        @Test(
            "a connection dropped mid-stream ends the loop with connectionLost after the bytes that came",
            arguments: TransportUnderTest.allCases)
        func dropMidStream(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().streaming([.init(Data("a\n".utf8)), .init(Data("b\n".utf8))], end: .disconnect))
            let apiClient = TransportTest.client(transport, server)

            var lines: [String] = []
            do {
                for try await line in try await apiClient.stream(.get, "/feed").lines { lines.append(line) }
                Issue.record("the stream ended normally")
            } catch {
                guard case .networkError(let failure) = error else {
                    Issue.record("expected a network error, got \(error)")
                    return
                }
                #expect(failure.kind == .connectionLost)
            }
            #expect(lines == ["a", "b"])
        }

        @Test("a 1xx before a streamed 200 is skipped", arguments: TransportUnderTest.allCases)
        func informationalBeforeStream(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withInterimResponse(103).streaming([.init(Data("ok".utf8))]))
            let apiClient = TransportTest.client(transport, server)

            let response = try await apiClient.stream(.get, "/early-hints")
            let body = try await response.body.collect()

            #expect(response.head.statusCode == 200)
            #expect(body == Data("ok".utf8))
        }

        @Test("a redirect is followed before the body streams", arguments: TransportUnderTest.allCases)
        func redirectThenStream(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 302).withHeader("Location", "/moved").withBody("moved"))
            server.enqueue(
                MockResponse().streaming([
                    .init(Data("final".utf8)), .init(Data(" part".utf8), after: TestTimeScale.scaled(.seconds(1))),
                ]))
            let apiClient = TransportTest.client(transport, server)

            let response = try await apiClient.stream(.get, "/start")
            var iterator = response.body.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            // The final response streams: its first part is here while the server still holds the second back.
            let writtenAtFirstChunk = await Self.bodyBytesWritten(by: server, reaching: 10)
            var body = first
            while let chunk = try await iterator.next() { body.append(chunk) }

            #expect(writtenAtFirstChunk == "moved".utf8.count + "final".utf8.count)
            #expect(body == Data("final part".utf8))
            #expect(response.head.url?.path == "/moved")
        }

        @Test("a rejected streamed response carries its body in the error", arguments: TransportUnderTest.allCases)
        func rejectedResponseBody(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 429).withJSONBody(#"{"error":"slow down"}"#))
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make(),
                configuration: .init(maxRetries: 0))

            do {
                _ = try await apiClient.stream(.get, "/limited")
                Issue.record("a 429 was accepted")
            } catch {
                #expect(error.statusCode == 429)
                #expect(error.response?.body == Data(#"{"error":"slow down"}"#.utf8))
            }
        }
    }
}
