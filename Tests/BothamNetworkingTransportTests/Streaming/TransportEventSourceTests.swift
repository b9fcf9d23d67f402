import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: a reconnecting event source", .timeLimit(.minutes(1)))
    struct TransportEventSourceTests {
        @Test(
            "a dropped stream is resumed with Last-Event-ID and no event is lost or repeated",
            arguments: TransportUnderTest.allCases)
        func resumesAfterDrop(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                .serverSentEvents(
                    [
                        MockServerSentEvent(id: "1", data: "one", retry: 50),
                        MockServerSentEvent(id: "2", data: "two"),
                    ], end: .disconnect))
            server.enqueue(.serverSentEvents([MockServerSentEvent(id: "3", data: "three")]))
            server.enqueue(MockResponse(statusCode: 204))
            let apiClient = TransportTest.client(transport, server)

            var data: [String] = []
            for try await event in apiClient.eventSource(apiClient.request(.get, "/feed")) { data.append(event.data) }

            #expect(data == ["one", "two", "three"])
            let first = try await server.takeRequest()
            let second = try await server.takeRequest()
            let third = try await server.takeRequest()
            #expect(first.header("Accept") == "text/event-stream")
            #expect(first.header("Last-Event-ID") == nil)
            #expect(second.header("Last-Event-ID") == "2")
            #expect(third.header("Last-Event-ID") == "3")
        }
    }
}
