import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("RequestCoalescingInterceptor on both transports against MockWebServer", .timeLimit(.minutes(1)))
    struct TransportCoalescingTests {
        /// A client with a coalescer over `transport`, whose sends `held` holds until released (nil: not held).
        private static func client(
            _ transport: TransportUnderTest, _ server: MockWebServer, held: HeldTransport? = nil
        ) -> (BothamAPIClient, RequestCoalescingInterceptor) {
            let coalescer = RequestCoalescingInterceptor()
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: held ?? transport.make(),
                configuration: .init(maxRetries: 0, validation: .acceptAll))
            apiClient.interceptors.append(coalescer)
            return (apiClient, coalescer)
        }

        private static func startGETs(
            _ count: Int, on apiClient: BothamAPIClient
        ) -> [Task<Result<HTTPResponse, APIClientError>, Never>] {
            (0..<count).map { _ in Task { await apiClient.GET("/feed") } }
        }

        @Test(
            "100 concurrent identical GETs: exactly one request reaches the server and all 100 get 200 with the body",
            arguments: TransportUnderTest.allCases)
        func hundredShareOne(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("the feed"))
            let real = transport.make()
            let held = HeldTransport { request throws(APIClientError) in try await real.send(request) }
            let (apiClient, coalescer) = Self.client(transport, server, held: held)

            let calls = Self.startGETs(100, on: apiClient)
            try #require(await eventually { coalescer.waitingCallCount == 100 && held.heldCount == 1 })
            held.release()

            for call in calls {
                let response = try await awaitingCancellably(call).get()
                #expect(response.statusCode == 200)
                #expect(response.body == Data("the feed".utf8))
            }
            #expect(server.requestCount == 1)
            #expect(coalescer.inFlightExchangeCount == 0)
        }

        @Test(
            "cancelling all callers but one: the one gets 200 and the server saw one request",
            arguments: TransportUnderTest.allCases)
        func cancelAllButOne(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("the feed"))
            let real = transport.make()
            let held = HeldTransport { request throws(APIClientError) in try await real.send(request) }
            let (apiClient, coalescer) = Self.client(transport, server, held: held)

            let calls = Self.startGETs(10, on: apiClient)
            try #require(await eventually { coalescer.waitingCallCount == 10 && held.heldCount == 1 })
            for call in calls.dropLast() { call.cancel() }
            for call in calls.dropLast() { #expect(await awaitingCancellably(call).isCancelled) }
            held.release()

            let last = try await awaitingCancellably(calls[9]).get()
            #expect(last.body == Data("the feed".utf8))
            #expect(server.requestCount == 1)
            #expect(held.cancelledCount == 0)
            #expect(coalescer.inFlightExchangeCount == 0)
        }

        @Test(
            "cancelling every caller cancels the exchange: the server sees the client close the connection",
            arguments: TransportUnderTest.allCases)
        func cancelAllClosesTheConnection(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            // Held back until the client hangs up.
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let (apiClient, coalescer) = Self.client(transport, server)

            let calls = Self.startGETs(10, on: apiClient)
            _ = try await server.takeRequest()
            try #require(await eventually { coalescer.waitingCallCount == 10 })
            #expect(server.clientClosedConnectionCount == 0)
            for call in calls { call.cancel() }
            for call in calls { #expect(await awaitingCancellably(call).isCancelled) }

            #expect(await eventually { server.clientClosedConnectionCount == 1 })
            #expect(server.requestCount == 1)
            #expect(coalescer.inFlightExchangeCount == 0)
        }
    }
}
