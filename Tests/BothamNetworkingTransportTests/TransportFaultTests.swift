import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: faults map to documented errors", .timeLimit(.minutes(1)))
    struct TransportFaultTests {
        @Test("connection refused is cannotConnect", arguments: TransportUnderTest.allCases)
        func connectionRefused(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            let url = server.url("/gone")
            server.shutdown()

            let (result, duration) = await TransportTest.elapsed {
                await BothamAPIClient(baseEndpoint: url.absoluteString, httpClient: transport.make()).GET("")
            }

            #expect(TransportTest.networkFailureKind(result) == .cannotConnect)
            #expect(duration < TestTimeScale.scaled(.seconds(5)))
        }

        @Test(
            "each socket fault ends with its documented error within its deadline",
            arguments: TransportUnderTest.allCases,
            [
                (SocketPolicy.disconnectAtStart, NetworkFailure.Kind.badServerResponse),
                (.disconnectAfterHeaders, .connectionLost),
                (.disconnectDuringBody, .connectionLost),
                (.malformedStatusLine, .badServerResponse),
                (.wrongContentLength, .connectionLost),
                (.truncatedChunkedBody, .connectionLost),
                (.resetConnection, .connectionLost),
            ])
        func socketFault(transport: TransportUnderTest, fault: (SocketPolicy, NetworkFailure.Kind)) async throws {
            let (policy, expected) = fault
            let server = try MockWebServer()
            defer { server.shutdown() }
            var response = MockResponse().withBody(TransportTest.pattern(count: 4096)).withSocketPolicy(policy)
            if policy == .truncatedChunkedBody { response = response.chunked(chunkSize: 512) }
            server.enqueue(response)
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/fault").withTimeout(.seconds(3))
            let (result, duration) = await TransportTest.elapsed { await apiClient.send(request) }

            #expect(TransportTest.networkFailureKind(result) == expected, "\(policy): \(result)")
            #expect(duration < TestTimeScale.scaled(.seconds(5)))
        }

        @Test("a stalled server ends with .timeout at the request's timeout", arguments: TransportUnderTest.allCases)
        func stall(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/stall").withTimeout(.milliseconds(300))
            let (result, duration) = await TransportTest.elapsed { await apiClient.send(request) }

            #expect(result.isTimeout)
            #expect(duration < TestTimeScale.scaled(.milliseconds(2500)))
        }
    }
}
