import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
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

        @Test(
            "a redirect to another port strips Authorization, Proxy-Authorization and Cookie",
            arguments: TransportUnderTest.allCases, [302, 307])
        func otherPortStripsCredentials(transport: TransportUnderTest, status: Int) async throws {
            let first = try MockWebServer()
            defer { first.shutdown() }
            let second = try MockWebServer()
            defer { second.shutdown() }
            first.enqueue(redirect(status, to: second.url("/elsewhere")))
            second.enqueue(MockResponse().withBody("other"))

            let response = try await TransportTest.client(transport, first)
                .PUT("/start", headers: credentials, body: .text("payload")).get()

            #expect(response.body == Data("other".utf8))
            let followed = try await second.takeRequest()
            #expect(followed.header("Authorization") == nil)
            #expect(followed.header("Proxy-Authorization") == nil)
            #expect(followed.header("Cookie") == nil)
            #expect(followed.header("X-Custom") == "kept")
        }

        @Test(
            "once stripped, credentials stay off when the chain comes back to the first origin",
            arguments: TransportUnderTest.allCases)
        func strippedStaysStripped(transport: TransportUnderTest) async throws {
            let first = try MockWebServer()
            defer { first.shutdown() }
            let second = try MockWebServer()
            defer { second.shutdown() }
            first.enqueue(contentsOf: [redirect(to: second.url("/hop")), MockResponse()])
            second.enqueue(redirect(to: first.url("/back")))

            _ = try await TransportTest.client(transport, first).GET("/start", headers: credentials).get()

            _ = try await first.takeRequest()
            let back = try await first.takeRequest()
            #expect(back.path == "/back")
            #expect(back.header("Authorization") == nil)
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

        @Test(
            "a 301, 302 or 303 after POST becomes a GET without the body", arguments: TransportUnderTest.allCases,
            [301, 302, 303])
        func postBecomesGet(transport: TransportUnderTest, status: Int) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [redirect(status, to: server.url("/result")), MockResponse()])

            _ = try await TransportTest.client(transport, server).POST("/submit", body: .text("form")).get()

            _ = try await server.takeRequest()
            let followed = try await server.takeRequest()
            #expect(followed.method == "GET")
            #expect(followed.body.isEmpty)
        }

        @Test(
            "a redirect loop ends with tooManyRedirects", arguments: TransportUnderTest.allCases,
            [RedirectPolicy.follow, .followAtMost(3)])
        func loop(transport: TransportUnderTest, policy: RedirectPolicy) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let loopURL = server.url("/loop")
            server.setDispatcher { _ in MockResponse(statusCode: 302).withHeader("Location", loopURL.absoluteString) }

            let (result, duration) = await TransportTest.elapsed {
                await TransportTest.client(transport, server, redirectPolicy: policy).GET("/loop")
            }

            #expect(TransportTest.networkFailureKind(result) == .tooManyRedirects)
            #expect(duration < TestTimeScale.scaled(.seconds(5), during: duration))
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

        @Test("followAtMost(n) follows exactly n redirects", arguments: TransportUnderTest.allCases)
        func followAtMost(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [
                redirect(to: server.url("/1")), redirect(to: server.url("/2")), MockResponse().withBody("end"),
            ])

            let response = try await TransportTest.client(transport, server, redirectPolicy: .followAtMost(2))
                .GET("/0")
                .get()

            #expect(response.body == Data("end".utf8))
        }

        @Test("doNotFollow returns the 3xx itself", arguments: TransportUnderTest.allCases)
        func doNotFollow(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(redirect(301, to: server.url("/new")).withBody("moved"))

            let response = try await TransportTest.client(transport, server, redirectPolicy: .doNotFollow).GET(
                "/old"
            ).get()

            #expect(response.statusCode == 301)
            #expect(response.headers[.location] == server.url("/new").absoluteString)
            #expect(response.body == Data("moved".utf8))
            #expect(server.requestCount == 1)
        }
    }
}
