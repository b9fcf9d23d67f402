import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// Challenges and timeouts as the README states them (a response within the timeout, cancellation mid-body and
    /// before the start are the `timeouts.withinTimeout` and `cancellation.*` checks, `OwnTransportsConformanceTests`).
    @Suite("Both transports against MockWebServer: challenges and timeouts", .timeLimit(.minutes(1)))
    struct TransportTimeoutTests {
        @Test(
            "a 401 with WWW-Authenticate and no credential comes back as a response within a second",
            arguments: TransportUnderTest.allCases,
            [
                "Basic realm=\"api\"", "Bearer realm=\"api\"", "Digest realm=\"api\", nonce=\"abc\"",
            ])
        func unauthorizedIsAResponse(transport: TransportUnderTest, challenge: String) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 401).withHeader("WWW-Authenticate", challenge).withBody("denied"))
            server.enqueue(MockResponse().withBody("after"))
            let apiClient = TransportTest.client(transport, server)

            let (result, duration) = await TransportTest.elapsed { await apiClient.GET("/private") }

            let response = try result.get()
            #expect(response.statusCode == 401)
            #expect(response.headers[.wwwAuthenticate] == challenge)
            #expect(response.body == Data("denied".utf8))
            #expect(duration < TestTimeScale.scaled(.seconds(1), during: duration))
            #expect(try await apiClient.GET("/next").get().body == Data("after".utf8))
        }

        @Test("a 0.5 s timeout fires between 0.4 s and 1.5 s", arguments: TransportUnderTest.allCases)
        func subSecondTimeout(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/slow").withTimeout(.milliseconds(500))
            let (result, duration) = await TransportTest.elapsed { await apiClient.send(request) }

            #expect(result.isTimeout)
            #expect(duration >= .milliseconds(400))
            #expect(duration < TestTimeScale.scaled(.milliseconds(1500), during: duration))
        }

        @Test("the timeout covers a body that trickles in", arguments: TransportUnderTest.allCases)
        func slowBodyTimesOut(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(String(repeating: "x", count: 100)).throttled(bytes: 1, per: .milliseconds(50)))
            let apiClient = TransportTest.client(transport, server)

            let request = apiClient.request(.get, "/trickle").withTimeout(.milliseconds(500))
            let (result, duration) = await TransportTest.elapsed { await apiClient.send(request) }

            #expect(result.isTimeout)
            #expect(duration < TestTimeScale.scaled(.milliseconds(1500), during: duration))
        }

        @Test(
            "maxAttemptTimeout caps requests without their own timeout, and longer ones",
            arguments: TransportUnderTest.allCases)
        func maxAttemptTimeout(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [
                MockResponse().withSocketPolicy(.noResponse), MockResponse().withSocketPolicy(.noResponse),
            ])
            let apiClient = TransportTest.client(transport, server, .init(maxAttemptTimeout: .milliseconds(300)))

            let (plain, plainDuration) = await TransportTest.elapsed { await apiClient.GET("/a") }
            let longer = apiClient.request(.get, "/b").withTimeout(.seconds(30))
            let (asked, askedDuration) = await TransportTest.elapsed { await apiClient.send(longer) }

            #expect(plain.isTimeout)
            #expect(asked.isTimeout)
            #expect(plainDuration < TestTimeScale.scaled(.milliseconds(1500), during: plainDuration))
            #expect(askedDuration < TestTimeScale.scaled(.milliseconds(1500), during: askedDuration))
        }

    }
}
