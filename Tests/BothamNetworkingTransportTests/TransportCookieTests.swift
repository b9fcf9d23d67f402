import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportIntegrationTests {
    @Suite("A CookieJar interceptor behaves the same on both transports", .timeLimit(.minutes(1)))
    struct TransportCookieTests {
        /// A client with a jar over `transport` as it comes (URLSession's default session keeps no cookies).
        private static func client(
            _ transport: TransportUnderTest, _ server: MockWebServer, jar: CookieJar
        ) -> BothamAPIClient {
            let httpClient = transport.make()
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: httpClient,
                configuration: .init(maxRetries: 0, validation: .acceptAll))
            apiClient.interceptors.append(jar)
            return apiClient
        }

        @Test(
            "two Set-Cookie fields of one response are both stored and sent back in one Cookie field",
            arguments: TransportUnderTest.allCases)
        func twoCookiesRoundTrip(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let jar = CookieJar()
            let apiClient = Self.client(transport, server, jar: jar)
            let session = "session=abc; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/; HttpOnly"
            server.enqueue(MockResponse().withHeader("Set-Cookie", session).withHeader("Set-Cookie", "theme=dark"))
            server.enqueue(MockResponse())

            _ = try await apiClient.GET("/login").get()
            _ = try await apiClient.GET("/profile").get()

            #expect(Set(jar.allCookies.map(\.name)) == ["session", "theme"])
            let login = try await server.takeRequest()
            let profile = try await server.takeRequest()
            #expect(login.headers.values(for: .cookie).isEmpty)
            #expect(profile.headers.values(for: .cookie) == ["session=abc; theme=dark"])
        }

        @Test(
            "a cookie a redirect sets is stored and sent on the next hop, beside the request's own Cookie field",
            arguments: TransportUnderTest.allCases, [302, 307])
        func redirectHopCookies(transport: TransportUnderTest, status: Int) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let jar = CookieJar()
            let apiClient = Self.client(transport, server, jar: jar)
            server.enqueue(
                MockResponse(statusCode: status).withHeader("Location", "/final").withHeader("Set-Cookie", "hop=1"))
            server.enqueue(MockResponse().withHeader("Set-Cookie", "final=2"))

            _ = try await apiClient.POST("/login", headers: ["Cookie": "mine=0"], body: .text("user")).get()

            #expect(Set(jar.allCookies.map(\.name)) == ["hop", "final"])
            let login = try await server.takeRequest()
            let final = try await server.takeRequest()
            #expect(login.headers.values(for: .cookie) == ["mine=0"])
            #expect(final.path == "/final")
            #expect(final.headers.values(for: .cookie) == ["mine=0; hop=1"])
        }

        @Test(
            "a hop to another host carries that host's cookies only, never the first host's or the request's own, even on later hops",
            arguments: TransportUnderTest.allCases)
        func crossHostHopCookies(transport: TransportUnderTest) async throws {
            let first = try MockWebServer()
            defer { first.shutdown() }
            let second = try MockWebServer()
            defer { second.shutdown() }
            let jar = CookieJar()
            let apiClient = Self.client(transport, first, jar: jar)
            // `localhost` is another host than `127.0.0.1` for cookies and for the redirect rules alike.
            let elsewhere = "http://localhost:\(second.port)/elsewhere"
            first.enqueue(MockResponse().withHeader("Set-Cookie", "first=1"))
            first.enqueue(
                MockResponse(statusCode: 302).withHeader("Location", elsewhere).withHeader("Set-Cookie", "hop=1"))
            second.enqueue(
                MockResponse(statusCode: 302).withHeader("Location", elsewhere + "?again=1")
                    .withHeader("Set-Cookie", "local=2"))
            second.enqueue(MockResponse())
            // The jar already holds a cookie for localhost: the hop there carries a Cookie field, and the request's
            // own cookie must still stay home on every later hop.
            let localhost = try #require(URL(string: elsewhere))
            jar.storeCookies(
                from: HTTPResponse(
                    statusCode: 200, headers: ["Set-Cookie": "pre=9"],
                    request: HTTPRequest(method: .get, url: localhost)))

            _ = try await apiClient.GET("/set").get()
            _ = try await apiClient.GET("/start", headers: ["Cookie": "mine=0"]).get()

            _ = try await first.takeRequest()
            let start = try await first.takeRequest()
            #expect(start.headers.values(for: .cookie) == ["mine=0; first=1"])
            let hop = try await second.takeRequest()
            #expect(hop.headers.values(for: .cookie) == ["pre=9"], "\(hop.headers)")
            let again = try await second.takeRequest()
            #expect(again.headers.values(for: .cookie) == ["pre=9; local=2"])
            #expect(Set(jar.allCookies.map(\.name)) == ["pre", "first", "hop", "local"])
        }
    }
}
