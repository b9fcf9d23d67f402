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
                TracingInterceptor.Context(
                    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "rojo=1"))
            apiClient.interceptors.append(TracingInterceptor { provided })

            let result = await apiClient.send(apiClient.request(.get, "/traced").withTimeout(.seconds(5)))

            #expect(try result.get().statusCode == 200)
            let received = try await server.takeRequest(timeout: .seconds(5))
            let header = try #require(received.header("traceparent"))
            let context = try #require(TracingInterceptor.Context(traceparent: header))
            #expect(context.traceparent == header)
            #expect(context.trace == provided.trace)
            #expect(context.span != provided.span)
            #expect(received.header("tracestate") == "rojo=1")
        }
    }
}
