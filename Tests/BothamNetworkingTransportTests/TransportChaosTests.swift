import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// `ChaosFault.truncateBody` against a real server, next to the server's own truncation (`MockWebServer`'s
    /// `disconnectDuringBody`): the caller cannot tell them apart by the error, the bytes or the retries.
    @Suite("Both transports: a chaos-truncated body fails like a real truncation", .timeLimit(.minutes(1)))
    struct TransportChaosTests {
        static let body = TransportTest.pattern(count: 4_096)

        /// A client for `server` with `chaos` as its network interceptor (when given), retrying as `retries` says.
        static func client(
            _ transport: TransportUnderTest, _ server: MockWebServer, chaos: ChaosInterceptor?, retries: Int = 0
        ) -> BothamAPIClient {
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make(),
                configuration: .init(
                    maxRetries: retries,
                    retrier: retries > 0 ? RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .zero)) : nil,
                    clock: VirtualClock(sleeping: .advancesClock)))
            if let chaos { apiClient.networkInterceptors.append(chaos) }
            return apiClient
        }

        static func kind(_ error: APIClientError?) -> APIClientError.NetworkFailure.Kind? {
            guard case .networkError(let failure) = error else { return nil }
            return failure.kind
        }

        @Test(
            "a body in memory: connectionLost, as when the server drops the connection mid-body",
            arguments: TransportUnderTest.allCases)
        func inMemory(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(Self.body).withSocketPolicy(.disconnectDuringBody))
            server.enqueue(MockResponse().withBody(Self.body))

            let real = await Self.client(transport, server, chaos: nil).GET("/real")
            let chaos = ChaosInterceptor(.script([.truncateBody]))
            let rehearsed = await Self.client(transport, server, chaos: chaos).GET("/rehearsed")

            #expect(TransportTest.networkFailureKind(real) == .connectionLost, "\(real)")
            #expect(TransportTest.networkFailureKind(rehearsed) == .connectionLost, "\(rehearsed)")
            #expect(server.requestCount == 2)  // the rehearsed request did reach the server
        }

        @Test(
            "the retry policy retries both alike, and spends the same budget",
            arguments: TransportUnderTest.allCases)
        func retried(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDispatcher { request in
                request.path == "/real"
                    ? MockResponse().withBody(Self.body).withSocketPolicy(.disconnectDuringBody)
                    : MockResponse().withBody(Self.body)
            }

            let real = await Self.client(transport, server, chaos: nil, retries: 2).GET("/real")
            let chaos = ChaosInterceptor(.script([.truncateBody], repeating: true))
            let rehearsed = await Self.client(transport, server, chaos: chaos, retries: 2).GET("/rehearsed")

            for result in [real, rehearsed] {
                guard case .failure(.retryLimitExceeded(let attempts, let last)) = result else {
                    Issue.record("expected retryLimitExceeded, got \(result)")
                    continue
                }
                #expect(attempts == 3)
                #expect(TransportTest.networkFailureKind(last) == .connectionLost)
            }
            #expect(server.requestCount == 6)
        }

        @Test(
            "a download to a file: connectionLost, and no file is left, as with the real truncation",
            arguments: TransportUnderTest.allCases)
        func toFile(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(Self.body).withSocketPolicy(.disconnectDuringBody))
            server.enqueue(MockResponse().withBody(Self.body))
            let realFolder = try ScratchFolder()
            defer { realFolder.remove() }
            let rehearsedFolder = try ScratchFolder()
            defer { rehearsedFolder.remove() }

            let real = await Self.client(transport, server, chaos: nil)
                .download("/real", to: .file(realFolder.file("body.bin")))
            let chaos = ChaosInterceptor(.script([.truncateBody]))
            let rehearsed = await Self.client(transport, server, chaos: chaos)
                .download("/rehearsed", to: .file(rehearsedFolder.file("body.bin")))

            #expect(TransportTest.networkFailureKind(real) == .connectionLost, "\(real)")
            #expect(TransportTest.networkFailureKind(rehearsed) == .connectionLost, "\(rehearsed)")
            #expect(try rehearsedFolder.contents() == [])
            #expect(try realFolder.contents() == rehearsedFolder.contents())
        }

        @Test(
            "a streamed body: the same first half of the bytes, then connectionLost",
            arguments: TransportUnderTest.allCases)
        func streamed(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody(Self.body).withSocketPolicy(.disconnectDuringBody))
            server.enqueue(MockResponse().withBody(Self.body))

            let realResponse = try await Self.client(transport, server, chaos: nil).stream(.get, "/real")
            let (realBytes, realError) = await realResponse.body.readToEnd()
            let chaos = ChaosInterceptor(.script([.truncateBody]))
            let rehearsedResponse = try await Self.client(transport, server, chaos: chaos).stream(.get, "/rehearsed")
            let (rehearsedBytes, rehearsedError) = await rehearsedResponse.body.readToEnd()

            #expect(Self.kind(realError) == .connectionLost, "\(String(describing: realError))")
            #expect(Self.kind(rehearsedError) == .connectionLost, "\(String(describing: rehearsedError))")
            #expect(rehearsedBytes == Self.body.prefix(2_048))
            #expect(realBytes == rehearsedBytes)
        }
    }
}
