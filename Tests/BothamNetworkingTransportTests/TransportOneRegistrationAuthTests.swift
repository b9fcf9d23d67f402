import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("An authenticator added with one call refreshes and resends on every transport", .timeLimit(.minutes(1)))
    struct TransportOneRegistrationAuthTests {
        @Test(
            "MockWebServer rejects the old token with a 401: the refresh runs once and the request is sent again",
            arguments: TransportUnderTest.allCases)
        func tokenRefreshedAndResent(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withStatus(401))
            server.enqueue(MockResponse().withJSONBody(#"{"ok":true}"#))
            let apiClient = TransportTest.client(transport, server)
            apiClient.configuration.maxRetries = 1  // the resend is the call's second send
            let refreshes = Recorder<Int>()
            apiClient.interceptors.append(
                TokenAuthenticator(store: .init(token: .init("old"))) { _ in
                    refreshes.append(1)
                    return TokenAuthenticator.Token("new")
                })

            let result = await apiClient.send(apiClient.request(.get, "/me").withTimeout(.seconds(5)))

            #expect(try result.get().statusCode == 200)
            #expect(refreshes.values.count == 1)
            let first = try await server.takeRequest(timeout: .seconds(5))
            let second = try await server.takeRequest(timeout: .seconds(5))
            #expect(first.header("Authorization") == "Bearer old")
            #expect(second.header("Authorization") == "Bearer new")
        }
    }
}
