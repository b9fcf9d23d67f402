import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// What the conformance suite's `redirects` checks leave out (`OwnTransportsConformanceTests` runs every other
    /// redirect rule on every transport): a 307 loop that re-sends its body each time still ends at the policy's limit.
    @Suite("Both transports against MockWebServer: redirects", .timeLimit(.minutes(1)))
    struct TransportRedirectTests {
        @Test("a 307 loop with a body ends with tooManyRedirects", arguments: TransportUnderTest.allCases)
        func reissueLoop(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let loopURL = server.url("/loop")
            server.setDispatcher { _ in MockResponse(statusCode: 307).withHeader("Location", loopURL.absoluteString) }

            let result = await TransportTest.client(transport, server, redirectPolicy: .followAtMost(4))
                .POST("/loop", body: .text("again"))

            #expect(TransportTest.networkFailureKind(result) == .tooManyRedirects)
            #expect(server.requestCount == 5)
        }
    }
}
