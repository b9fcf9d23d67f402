import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports build every redirect hop with RedirectHop", .timeLimit(.minutes(1)))
    struct TransportRedirectHopTests {
        @Test(
            "a 302 or 303 after a POST becomes a GET without a body or Content-Type",
            arguments: TransportUnderTest.allCases, [302, 303])
        func postBecomesBodylessGet(transport: TransportUnderTest, status: Int) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: status).withHeader("Location", "/created/7"))
            server.enqueue(MockResponse().withBody("done"))

            _ = try await TransportTest.client(transport, server).POST("/items", body: ["name": "x"]).get()

            let post = try await server.takeRequest()
            let followed = try await server.takeRequest()
            #expect(post.header("Content-Type") == "application/json")
            #expect(followed.method == "GET")
            #expect(followed.path == "/created/7")
            #expect(followed.header("Content-Type") == nil)
            #expect(followed.body.isEmpty)
        }

        @Test(
            "relative Location values resolve as RFC 3986 §5 says",
            arguments: TransportUnderTest.allCases,
            [
                ("?page=2", "/v1/items?page=2"), ("./other", "/v1/other"), ("../v2/items", "/v2/items"),
                ("/abs?q=1", "/abs?q=1"), ("next/../last", "/v1/last"), ("#fragment", "/v1/items?page=1"),
            ])
        func relativeLocations(transport: TransportUnderTest, location: (String, String)) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 302).withHeader("Location", location.0))
            server.enqueue(MockResponse().withBody("here"))
            let apiClient = TransportTest.client(transport, server, redirectPolicy: .followAtMost(1))

            _ = await apiClient.GET("/v1/items", parameters: ["page": "1"])

            _ = try await server.takeRequest()
            let followed = try await server.takeRequest()
            #expect(followed.target == location.1)
        }

        @Test(
            "a field the policy names sensitive is removed when a redirect leaves the origin, and kept when it does not",
            arguments: TransportUnderTest.allCases)
        func sensitiveFieldsStripped(transport: TransportUnderTest) async throws {
            let first = try MockWebServer()
            defer { first.shutdown() }
            let second = try MockWebServer()
            defer { second.shutdown() }
            first.enqueue(MockResponse(statusCode: 302).withHeader("Location", "/same"))
            first.enqueue(MockResponse(statusCode: 302).withHeader("Location", second.url("/other").absoluteString))
            second.enqueue(MockResponse())
            let policy = RedirectPolicy.follow.strippingAcrossOrigins("X-Api-Key")
            let apiClient = TransportTest.client(transport, first, redirectPolicy: policy)

            _ = try await apiClient.GET("/start", headers: ["X-Api-Key": "k3y", "X-Trace": "t"]).get()

            _ = try await first.takeRequest()
            let same = try await first.takeRequest()
            let other = try await second.takeRequest()
            #expect(same.header("X-Api-Key") == "k3y")
            #expect(other.header("X-Api-Key") == nil)
            #expect(other.header("X-Trace") == "t")
        }
    }
}
