import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("A TracingInterceptor's traceparent reaches the server", .timeLimit(.minutes(1)))
    struct TransportTraceparentTests {
        @Test(
            "MockWebServer receives a valid traceparent in the provider's trace", arguments: TransportUnderTest.allCases
        )
        func traceparentReceived(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("ok"))
            let apiClient = TransportTest.client(transport, server)
            let provided = try #require(
                TraceContext(
                    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "rojo=1"))
            TracingInterceptor { provided }.install(on: apiClient)

            let result = await apiClient.send(apiClient.request(.get, "/traced").withTimeout(.seconds(5)))

            #expect(try result.get().statusCode == 200)
            let received = try await server.takeRequest(timeout: .seconds(5))
            let header = try #require(received.header("traceparent"))
            let context = try #require(TraceContext(traceparent: header))
            #expect(context.traceparent == header)
            #expect(context.traceID == provided.traceID)
            #expect(context.spanID != provided.spanID)
            #expect(received.header("tracestate") == "rojo=1")
        }
    }
}
