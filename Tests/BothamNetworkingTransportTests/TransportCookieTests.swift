import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportIntegrationTests {
    @Suite("CookieInterceptor behaves the same on both transports", .timeLimit(.minutes(1)))
    struct TransportCookieTests {
        /// A client with a jar over `transport` as it comes (URLSession's default session keeps no cookies).
        private static func client(
            _ transport: TransportUnderTest, _ server: MockWebServer, jar: CookieJar
        ) -> BothamAPIClient {
            let httpClient = transport.make()
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: httpClient,
                configuration: .init(maxRetries: 0, validation: .acceptAll))
            apiClient.interceptors.append(CookieInterceptor(jar: jar))
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
            "a redirect the transport follows hands the jar the final response's cookies only",
            arguments: TransportUnderTest.allCases)
        func redirectHopCookies(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            let jar = CookieJar()
            let apiClient = Self.client(transport, server, jar: jar)
            server.enqueue(
                MockResponse(statusCode: 302).withHeader("Location", "/final").withHeader("Set-Cookie", "hop=1"))
            server.enqueue(MockResponse().withHeader("Set-Cookie", "final=2"))

            _ = try await apiClient.GET("/start").get()

            #expect(jar.allCookies.map(\.name) == ["final"])
        }
    }
}
