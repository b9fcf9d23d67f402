import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// What the conformance suite's `redirects` checks leave out (`OwnTransportsConformanceTests` runs the cross-origin
    /// stripping, POST becoming GET, loops, `followAtMost` and `doNotFollow` on every transport): the final URL and
    /// body of a same-origin redirect, credentials kept on a 307 or 308, and a 307 loop that re-sends a body.
    @Suite("Both transports against MockWebServer: redirects", .timeLimit(.minutes(1)))
    struct TransportRedirectTests {
        let credentials: HTTPHeaders = [
            "Authorization": "Bearer secret",
            "Proxy-Authorization": "Basic cHJveHk6cHc=",
            "Cookie": "session=abc",
            "X-Custom": "kept",
        ]

        private func redirect(_ status: Int = 302, to url: URL) -> MockResponse {
            MockResponse(statusCode: status).withHeader("Location", url.absoluteString)
        }

        @Test(
            "a same-origin redirect keeps Authorization, Proxy-Authorization and Cookie",
            arguments: TransportUnderTest.allCases)
        func sameOriginKeepsCredentials(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [redirect(to: server.url("/target")), MockResponse().withBody("here")])

            let response = try await TransportTest.client(transport, server).GET("/start", headers: credentials).get()

            #expect(response.body == Data("here".utf8))
            #expect(response.url == server.url("/target"))
            _ = try await server.takeRequest()
            let followed = try await server.takeRequest()
            #expect(followed.path == "/target")
            #expect(followed.header("Authorization") == "Bearer secret")
            #expect(followed.header("Proxy-Authorization") == "Basic cHJveHk6cHc=")
            #expect(followed.header("Cookie") == "session=abc")
        }

        @Test("a 307 or 308 keeps the method and the body", arguments: TransportUnderTest.allCases, [307, 308])
        func keepsMethodAndBody(transport: TransportUnderTest, status: Int) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [redirect(status, to: server.url("/moved")), MockResponse(statusCode: 201)])
            let body = TransportTest.pattern(count: 100_000)

            let response = try await TransportTest.client(transport, server)
                .POST("/create", headers: ["Authorization": "Bearer secret"], body: .data(body, contentType: "x/y"))
                .get()

            #expect(response.statusCode == 201)
            #expect(response.url == server.url("/moved"))
            let original = try await server.takeRequest()
            #expect(original.body == body)
            let followed = try await server.takeRequest()
            #expect(followed.method == "POST")
            #expect(followed.path == "/moved")
            #expect(followed.body == body)
            #expect(followed.header("Content-Type") == "x/y")
            #expect(followed.header("Authorization") == "Bearer secret")
        }

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
