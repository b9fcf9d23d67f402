import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: the call timeout of a streamed body", .timeLimit(.minutes(1)))
    struct TransportStreamCallTimeoutTests {
        @Test(
            "a stalled streamed body ends with timeout when callTimeout runs out, though the idle timeout is far off",
            arguments: TransportUnderTest.allCases)
        func stalledBodyEndsAtTheCallTimeout(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().streaming([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: .seconds(30))])
            )
            let callTimeout = Duration.milliseconds(300)
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: transport.make(),
                configuration: .init(maxRetries: 0, validation: .acceptAll, callTimeout: callTimeout)
            )
            // The idle timeout alone would wait 30 s for the stalled chunk.
            let request = apiClient.request(.get, "/feed").withTimeout(.seconds(30))

            let start = ContinuousClock.now
            let response = try await apiClient.stream(request)
            var lines: [String] = []
            var ending: APIClientError?
            do throws(APIClientError) {
                for try await line in response.lines { lines.append(line) }
            } catch {
                ending = error
            }
            let elapsed = ContinuousClock.now - start

            guard case .timeout? = ending else {
                Issue.record("expected the body to end with timeout, got \(String(describing: ending))")
                return
            }
            #expect(lines == ["first"])
            #expect(elapsed >= callTimeout)
            #expect(
                elapsed < TestTimeScale.scaled(callTimeout + .milliseconds(1_200), during: elapsed), "took \(elapsed)")
        }
    }
}
